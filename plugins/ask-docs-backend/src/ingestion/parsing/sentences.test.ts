import { splitSentences } from './sentences';

const sentences = (text: string) =>
  splitSentences(text).map(s => text.slice(s.start, s.end));

describe('splitSentences', () => {
  it('splits plain sentences at terminal punctuation before a capital letter', () => {
    expect(sentences('First one. Second one! Third one? Fourth.')).toEqual([
      'First one.',
      'Second one!',
      'Third one?',
      'Fourth.',
    ]);
  });

  it('starts a sentence in lower case only when told (questions typed into a chat box)', () => {
    const text =
      'We moved the cluster. how do I copy it? e.g. twice. 5. června';
    expect(sentences(text)).toEqual([text]);
    expect(
      splitSentences(text, { chat: true }).map(s => text.slice(s.start, s.end)),
    ).toEqual([
      'We moved the cluster.',
      'how do I copy it?',
      'e.g. twice.',
      '5. června',
    ]);
    const chat = (t: string) =>
      splitSentences(t, { chat: true }).map(s => t.slice(s.start, s.end));
    // A symbol may start one; a list's "etc." and a date's number end none.
    expect(chat('How do I move it? 🙂 We need it soon.')).toEqual([
      'How do I move it?',
      '🙂 We need it soon.',
    ]);
    expect(chat('We use tables, views etc. in our schema.')).toHaveLength(1);
    expect(
      chat('Migrujeme MySQL atd. na nový cluster 5. června.'),
    ).toHaveLength(1);
  });

  it('keeps English abbreviations, initials and decimals inside the sentence', () => {
    expect(
      sentences('Use a tool, e.g. Git or Mercurial. Then commit.'),
    ).toEqual(['Use a tool, e.g. Git or Mercurial.', 'Then commit.']);
    expect(sentences('It is cheap, i.e. Free for all. Done.')).toEqual([
      'It is cheap, i.e. Free for all.',
      'Done.',
    ]);
    expect(
      sentences('Written by J. R. Smith in 2020. Pi is 3.14 today.'),
    ).toEqual(['Written by J. R. Smith in 2020.', 'Pi is 3.14 today.']);
    expect(sentences('Compare Dr. Who with Mr. Bean. They differ.')).toEqual([
      'Compare Dr. Who with Mr. Bean.',
      'They differ.',
    ]);
  });

  it('keeps Czech abbreviations and dates inside the sentence', () => {
    expect(
      sentences('Použijte např. Git nebo tzn. Mercurial. Pak commitněte.'),
    ).toEqual(['Použijte např. Git nebo tzn. Mercurial.', 'Pak commitněte.']);
    expect(
      sentences(
        'Dne 10. 11. 2025 požádal o grant. Výbor hlasoval 3. 12. 2025. Grant byl schválen.',
      ),
    ).toEqual([
      'Dne 10. 11. 2025 požádal o grant.',
      'Výbor hlasoval 3. 12. 2025.',
      'Grant byl schválen.',
    ]);
    expect(
      sentences(
        'Spolek Pyvec, z.s. (dále jen spolek) je právnická osoba. Sídlí v Praze.',
      ),
    ).toEqual([
      'Spolek Pyvec, z.s. (dále jen spolek) je právnická osoba.',
      'Sídlí v Praze.',
    ]);
    expect(sentences('Zákon č. 89/2012 Sb. platí.')).toEqual([
      'Zákon č. 89/2012 Sb. platí.',
    ]);
  });

  it('does not split inside version numbers, file names and URLs', () => {
    expect(
      sentences(
        'MkDocs 1.0.4 reads mkdocs.yml from https://example.com/a.b. It works.',
      ),
    ).toEqual([
      'MkDocs 1.0.4 reads mkdocs.yml from https://example.com/a.b.',
      'It works.',
    ]);
    expect(sentences('Released in version 1.0. The next one is 2.0.')).toEqual([
      'Released in version 1.0.',
      'The next one is 2.0.',
    ]);
  });

  it('does not treat line numbering as a sentence', () => {
    expect(sentences('2.19.1. Activating the Command')).toEqual([
      '2.19.1. Activating the Command',
    ]);
    expect(sentences('IV. Členství')).toEqual(['IV. Členství']);
    expect(sentences('1. Install it. Then run it.')).toEqual([
      '1. Install it.',
      'Then run it.',
    ]);
  });

  it('ends sentences after closing quotes and brackets, and handles ellipses', () => {
    expect(
      sentences('He said "stop." Then left. (Really.) Yes... No.'),
    ).toEqual(['He said "stop."', 'Then left.', '(Really.)', 'Yes...', 'No.']);
  });

  it('does not split before a lower-case word or a digit', () => {
    expect(
      sentences(
        'Run mkdocs serve. mkdocs then watches files. 3 files changed.',
      ),
    ).toEqual([
      'Run mkdocs serve. mkdocs then watches files. 3 files changed.',
    ]);
  });

  it('makes every line a unit of its own and skips blank lines', () => {
    const text =
      'theme:\n  name: readthedocs\n\n  \nSecond paragraph. Two sentences.';
    expect(sentences(text)).toEqual([
      'theme:',
      'name: readthedocs',
      'Second paragraph.',
      'Two sentences.',
    ]);
  });

  it('returns spans that point into the text, in order, without surrounding whitespace', () => {
    const text = '  Leading space. Trailing space.  \n\tTabbed line.';
    const spans = splitSentences(text);
    for (let i = 0; i < spans.length; i++) {
      const s = text.slice(spans[i].start, spans[i].end);
      expect(s).toBe(s.trim());
      if (i > 0)
        expect(spans[i].start).toBeGreaterThanOrEqual(spans[i - 1].end);
    }
    expect(spans).toHaveLength(3);
  });

  it('handles empty input', () => {
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences('\n\n  \n')).toEqual([]);
  });
});
