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
  it('turns how-questions into the bare request, in both languages', () => {
    expect(otherForm('How do I rotate my AWS keys?', 'en', false)).toBe(
      'rotate my AWS keys',
    );
    expect(otherForm('how to avoid a full scan', 'en', false)).toBe(
      'avoid a full scan',
    );
    expect(otherForm('Jak nasadit pokladnu?', 'cs', false)).toBe(
      'nasadit pokladnu',
    );
    expect(otherForm('jak prichytit vrstvu k voditkum', 'cs', true)).toBe(
      'prichytit vrstvu k voditkum',
    );
    expect(otherForm('Jak převést výběr na cestu?', 'cs', false)).toBe(
      'převést výběr na cestu',
    );
    expect(otherForm('Jak se přihlásit na PyCon?', 'cs', false)).toBe(
      'přihlásit se na PyCon',
    );
  });

  it('turns a request into a how-question only when allowed and when it starts with a verb', () => {
    expect(otherForm('drop a database with sessions', 'en', true)).toBe(
      'How do I drop a database with sessions?',
    );
    expect(otherForm('drop a database with sessions', 'en', false)).toBe(
      undefined,
    );
    expect(otherForm('nasadit pokladnu', 'cs', true)).toBe(
      'Jak nasadit pokladnu?',
    );
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
