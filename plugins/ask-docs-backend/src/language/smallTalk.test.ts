import { BUILT_IN_PROFILES } from './createLanguageAnalyzers';
import { withoutSmallTalk } from './smallTalk';

const focus = (text: string) => withoutSmallTalk(text, BUILT_IN_PROFILES);

describe('withoutSmallTalk', () => {
  it.each([
    [
      'Hi, quick question: how do I rotate a layer?',
      'how do I rotate a layer?',
    ],
    [
      'Thanks in advance! Which tool lightens a photo?',
      'Which tool lightens a photo?',
    ],
    [
      'Does pg_dump lock writers? Sorry, newbie here.',
      'Does pg_dump lock writers?',
    ],
    ['Ahoj, rychlý dotaz: Jak otočit vrstvu? Díky!', 'Jak otočit vrstvu?'],
    // Typed without diacritics, as Czech often is.
    ['Dobry den, poradi mi nekdo? jak otocit vrstvu', 'jak otocit vrstvu'],
  ])('%s → %s', (asked, searched) => {
    expect(focus(asked).text).toBe(searched);
  });

  it('finds the small talk after a question typed without its full stop', () => {
    expect(focus('bulk load rows fast Sorry if this is basic.')).toEqual({
      text: 'bulk load rows fast',
      dropped: ['Sorry if this is basic.'],
    });
    expect(focus('the alpha option is greyed out Thanks!').text).toBe(
      'the alpha option is greyed out',
    );
    // One capitalised small-talk word is a name there: the Help menu, not a plea. And "I" starts
    // no sentence: it is capitalised anywhere.
    for (const asked of [
      "my view became temporary although I didn't ask for it",
      'how do I open the Help',
      'where is the Help?',
      'How do I use Quick Mask',
    ])
      expect(focus(asked)).toEqual({ text: asked, dropped: [] });
  });

  it('finds a sign-off of thanks typed without punctuation or capital', () => {
    for (const [asked, searched, dropped] of [
      ['how do I vacuum a table thanks', 'how do I vacuum a table', 'thanks'],
      ['how do I vacuum a table Cheers', 'how do I vacuum a table', 'Cheers'],
      // An English preposition can end a question.
      ['what is this option for thanks', 'what is this option for', 'thanks'],
      // A word another language puts before a noun (Czech "do") is no article in English, and
      // a sign-off after "and" is one.
      ['what does vacuum do thanks', 'what does vacuum do', 'thanks'],
      [
        'how do I vacuum a table and thanks in advance',
        'how do I vacuum a table and',
        'thanks in advance',
      ],
      [
        'jak nastavit replikaci a předem díky',
        'jak nastavit replikaci a',
        'předem díky',
      ],
      [
        'merge layers thank you very much',
        'merge layers',
        'thank you very much',
      ],
      [
        'jak nastavit replikaci diky predem',
        'jak nastavit replikaci',
        'diky predem',
      ],
      // The whole phrase goes, and only the phrase: "pomoc" is asked here.
      ['jak zavolat pomoc děkuji', 'jak zavolat pomoc', 'děkuji'],
      [
        'K čemu se hodí rozprašovač děkuju za radu',
        'K čemu se hodí rozprašovač',
        'děkuju za radu',
      ],
      // After words that ask nothing themselves, the clause is small talk as a whole.
      [
        'restore stalls at the start, why many thanks',
        'restore stalls at the start,',
        'why many thanks',
      ],
      [
        'Co udělá Ctrl u rozprašovače? Předem díky za radu.',
        'Co udělá Ctrl u rozprašovače?',
        'Předem díky za radu.',
      ],
    ])
      expect(focus(asked)).toEqual({ text: searched, dropped: [dropped] });
  });

  it('peels any number of sign-offs off the end, in one pass', () => {
    expect(focus('merge layers thanks thx cheers')).toEqual({
      text: 'merge layers',
      dropped: ['thanks', 'thx', 'cheers'],
    });
    // A long run of them is no deep recursion (a 16,000-character question overflowed it).
    const many = `kafka${' thx'.repeat(4000)}`;
    expect(focus(many).text).toBe('kafka');
  });

  it('finds small talk before a sign-off as it does without one', () => {
    for (const thanks of ['thanks', 'Thanks'])
      expect(
        focus(`how do I vacuum a table Sorry if this is basic ${thanks}`),
      ).toEqual({
        text: 'how do I vacuum a table',
        dropped: ['Sorry if this is basic', thanks],
      });
  });

  it('keeps words of a sign-off that are not one, and thanks that ask nothing else', () => {
    for (const asked of [
      // Words that go with thanks, without them: asked.
      'how to pay in advance',
      'jak zaplatit předem',
      // Thanks inside what is asked, not at its end.
      'the alpha option Thanks Quick Mask',
      'does thanks in advance work as a search term in the docs',
      // A word of thanks in a quote or a path is what is asked about.
      'How do I print "thanks"',
      'error in path/to/thanks',
      // Thanks after an article or a preposition are the thing asked about.
      'how do I add a thank you',
      'How do I add a Thank You',
      'where do I send my thanks',
      'jak poslat e-mail s díky',
      // Nothing asked without it.
      'thanks a lot',
      'Díky moc',
      'Can I thank you',
    ])
      expect(focus(asked)).toEqual({ text: asked, dropped: [] });
  });

  it('reads a first or last line of small talk as a clause of its own', () => {
    expect(
      focus('Hi all\nquick question\nhow do I merge layers\nthanks in advance'),
    ).toEqual({
      text: 'how do I merge layers',
      dropped: ['Hi all', 'quick question', 'thanks in advance'],
    });
    expect(focus('Dobrý den\r\njak otočit vrstvu').text).toBe(
      'jak otočit vrstvu',
    );
  });

  it.each([
    // A sentence wrapped over lines: a line in the middle is no clause of its own.
    'Is there a way for\nsomeone who is new here\nto get access to the staging cluster?',
    'Who should\nsomeone ask about\nthe billing service?',
    'How do I configure\nthe pool size?',
  ])('keeps a wrapped sentence whole: %j', asked => {
    expect(focus(asked)).toEqual({ text: asked, dropped: [] });
  });

  it('finds a tail after words with invisible characters or hyphens as tokenize reads them', () => {
    // The soft hyphen is dropped inside "De\u00adkuji", so the tail is one word of thanks.
    expect(focus('jak nastavit replikaci D\u011b\u00adkuji moc').text).toBe(
      'jak nastavit replikaci',
    );
    expect(
      focus('how do I rotate a layer Thanks every\u00adone').dropped,
    ).toEqual(['Thanks every\u00adone']);
    expect(
      focus('where is the x\u2011ray mode Thanks everyone').dropped,
    ).toEqual(['Thanks everyone']);
  });

  it('finds the small-talk tail after the last asked word, however long the question', () => {
    const long = `${'Which Layer Mode Makes Dark Pixels Transparent '.repeat(
      40,
    )}Thanks!`;
    expect(focus(long)).toEqual({
      text: long.slice(0, -' Thanks!'.length),
      dropped: ['Thanks!'],
    });
    // A capitalised asked word after the small talk keeps it: the tail must be all small talk.
    const asked = 'the alpha option Thanks Quick Mask';
    expect(focus(asked)).toEqual({ text: asked, dropped: [] });
  });

  it('leaves out a lead-in of small-talk words before a colon, without a marker word', () => {
    expect(
      focus('My team asked me to find out: which setting is mandatory?'),
    ).toEqual({
      text: 'which setting is mandatory?',
      dropped: ['My team asked me to find out:'],
    });
    expect(
      focus('Hello all. My boss wants to know: how do I merge layers?').text,
    ).toBe('how do I merge layers?');
    // Without the colon it is a clause that may say what is asked; after the first asked
    // clause it is no lead-in; with a word of its own it names the topic.
    for (const asked of [
      'My team asked me to find out which setting is mandatory',
      'How do I merge layers? My team asked me to find out: quickly',
      'My team asked about tablespaces: where are they?',
      'Tým se ptal na tablespaces: kde jsou?',
      'To: which address does it go?',
      // Small-talk words that name the topic, without a word of asking.
      'Team: how do I add a member?',
      'New job: how do I schedule it?',
      'Tým: jak přidám člena?',
      'Work: which tasks are mine?',
    ])
      expect(focus(asked)).toEqual({ text: asked, dropped: [] });
  });

  it('says what it left out', () => {
    expect(focus('Hello! Can someone help? How do I merge layers?')).toEqual({
      text: 'How do I merge layers?',
      dropped: ['Hello!', 'Can someone help?'],
    });
  });

  it('keeps small-talk words in a clause that asks something', () => {
    for (const asked of [
      'How do I open the Help browser?',
      'Quick Mask, how do I turn it on?',
      'Which search plugin finds words in code blocks?',
      'Version 1.2, what changed?',
      'Díky čemu se vrstva posune?',
    ])
      expect(focus(asked)).toEqual({ text: asked, dropped: [] });
  });

  it.each([
    // A topic first, then a question of words small talk also uses: that is the question.
    'In a trigger function, what is NEW?',
    'PostgreSQL 17, what is new?',
    'TechDocs, how does it work?',
    'psql, how do I get help?',
    'Backstage catalog: who is on the team?',
    'SQL_ASCI encoding for client, is that a good idea',
    'How do I edit pg_hba.conf, with vim?',
    'Je dobré, když vrstva nemá alfa kanál?',
    'Dobrovolníci v Pyvecu: kolik je to práce?',
    'Je kurz PyLadies ráno, nebo večer?',
    // UI labels after a lower-case word.
    'how do I open Help About',
    'how to configure Job Manager',
    'Who owns the New Team',
  ])('keeps what is asked: %s', asked => {
    expect(focus(asked)).toEqual({ text: asked, dropped: [] });
  });

  it('reads Czech typed without diacritics as with them', () => {
    expect(focus('Ahoj, uz jsem se zasekl. jak otocit vrstvu').text).toBe(
      'jak otocit vrstvu',
    );
    expect(focus('Ahoj, už jsem se zasekl. Jak otočit vrstvu?').text).toBe(
      'Jak otočit vrstvu?',
    );
  });

  it('keeps a question that is nothing but small talk as asked', () => {
    for (const asked of [
      'Where is the help, please?',
      'Thanks!',
      'Hi, anyone?',
    ])
      expect(focus(asked)).toEqual({ text: asked, dropped: [] });
  });
});
