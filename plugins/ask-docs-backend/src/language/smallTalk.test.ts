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
      'Does pg_dump lock writers? Sorry, I am new here.',
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

  it('keeps a question that is nothing but small talk as asked', () => {
    for (const asked of [
      'Where is the help, please?',
      'Thanks!',
      'Hi, anyone?',
    ])
      expect(focus(asked)).toEqual({ text: asked, dropped: [] });
  });
});
