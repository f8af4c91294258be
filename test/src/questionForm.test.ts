import type { EvalItem } from '../eval/evalItems';
import { formSet, formVariants, otherForm } from '../eval/questionForm';

const item = (over: Partial<EvalItem>): EvalItem => ({
  id: 'x-001',
  corpus: 'postgresql-docs',
  lang: 'en',
  question: '',
  answerable: true,
  gold: [{ page: 'sql-vacuum.html' }],
  kind: 'howto',
  file: 'pg.jsonl',
  set: 'items-train',
  ...over,
});

describe('question-form variants', () => {
  // [question, language, fragment → how allowed, other form]
  const rewrites: Array<[string, string, boolean, string | undefined]> = [
    ['How do I rotate my AWS keys?', 'en', false, 'rotate my AWS keys'],
    ['how to avoid a full scan', 'en', false, 'avoid a full scan'],
    ['Jak nasadit pokladnu?', 'cs', false, 'nasadit pokladnu'],
    [
      'jak prichytit vrstvu k voditkum',
      'cs',
      true,
      'prichytit vrstvu k voditkum',
    ],
    ['Jak převést výběr na cestu?', 'cs', false, 'převést výběr na cestu'],
    ['Jak se přihlásit na PyCon?', 'cs', false, 'přihlásit se na PyCon'],
  ];
  const requests: Array<[string, string, boolean, string | undefined]> = [
    [
      'drop a database with sessions',
      'en',
      true,
      'How do I drop a database with sessions?',
    ],
    ['drop a database with sessions', 'en', false, undefined],
    ['nasadit pokladnu', 'cs', true, 'Jak nasadit pokladnu?'],
  ];
  const check = (cases: typeof rewrites) => {
    for (const [question, lang, toHow, expected] of cases)
      expect(otherForm(question, lang, toHow)).toBe(expected);
  };

  it('turns how-questions into the bare request, in both languages', () => {
    check(rewrites);
  });

  it('turns a request into a how-question only when allowed and when it starts with a verb', () => {
    check(requests);
  });

  it('leaves other questions alone', () => {
    for (const [q, lang] of [
      ['How does VACUUM reclaim space?', 'en'],
      ['How many undo steps are kept?', 'en'],
      ['what range of angles can I enter?', 'en'],
      ['syntax to create a hash index', 'en'],
      ['latest row per group', 'en'],
      ['column that is computed from others', 'en'],
      ['Jak se odhlásím z konference?', 'cs'],
      ['část obrázku', 'cs'],
      ['pg_locks view outstanding locks', 'en'],
      ['Jak dlouho trvá kurz?', 'cs'],
      ['Jaký je IČO spolku?', 'cs'],
      ['text nástroje', 'cs'],
    ])
      expect(otherForm(q, lang, true)).toBeUndefined();
  });

  it('keeps gold pages and answerability, and reports the variant in its own set', () => {
    const [v] = formVariants([
      item({ question: 'drop a database with sessions' }),
    ]);
    expect(v).toMatchObject({
      id: 'x-001~form',
      question: 'How do I drop a database with sessions?',
      answerable: true,
      gold: [{ page: 'sql-vacuum.html' }],
      set: 'form-train',
    });
    expect(formSet('shared-dev')).toBe('form-shared-dev');
    expect(formSet('items-test')).toBe('form-test');
  });

  it('makes no variants of the cross-lingual set', () => {
    const how = { question: 'Jak zálohovat databázi?', lang: 'cs' };
    expect(formVariants([item(how)])).toHaveLength(1);
    expect(formVariants([item({ ...how, set: 'cross-train' })])).toEqual([]);
  });

  it('does not make how-questions of answerable fragments other than how-to requests', () => {
    expect(
      formVariants([
        item({
          question: 'percentile_cont within group median',
          kind: 'keyword',
        }),
        item({
          id: 'x-002',
          question: 'make a layer mask',
          kind: 'paraphrase',
        }),
      ]),
    ).toEqual([]);
    // Unanswerable requests get the how-form whatever their kind.
    expect(
      formVariants([
        item({
          question: 'rotate my AWS keys',
          answerable: false,
          kind: 'off-topic',
        }),
      ]).map(v => v.question),
    ).toEqual(['How do I rotate my AWS keys?']);
  });
});
