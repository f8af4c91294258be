import type { EvalItem } from '../eval/evalItems';
import { evalItem } from './evalItemFixture';
import {
  chatVariants,
  contextSet,
  contextVariants,
  signOffVariants,
} from '../eval/questionContext';

const item = (over: Partial<EvalItem>) =>
  evalItem({ question: 'How do I truncate several tables together?', ...over });

const items = Array.from({ length: 60 }, (_, n) => [
  item({ id: `en-${n}` }),
  item({
    id: `cs-${n}`,
    lang: 'cs',
    question: 'Jak najednou vyprázdnit několik tabulek?',
    set: n % 2 ? 'items-test' : 'items-dev',
  }),
  item({ id: `test-${n}`, set: 'items-test' }),
]).flat();

describe('context variants', () => {
  it('keep the question whole, with its gold, answerability and language', () => {
    for (const v of contextVariants(items)) {
      const source = items.find(i => `${i.id}~context` === v.id)!;
      expect(v.question).toContain(source.question);
      expect(v.question.length).toBeGreaterThan(source.question.length + 20);
      expect(v).toMatchObject({
        gold: source.gold,
        answerable: source.answerable,
        lang: source.lang,
        set: contextSet(source.set),
      });
    }
    expect(contextSet('shared-dev')).toBe('context-shared-dev');
  });

  it('frame the test split with its own sentences, and each language in its own', () => {
    const sentence = (v: EvalItem) =>
      v.question
        .replace(items.find(i => `${i.id}~context` === v.id)!.question, '')
        .trim();
    const variants = contextVariants(items);
    const test = new Set(
      variants.filter(v => v.set === 'context-test').map(sentence),
    );
    const other = new Set(
      variants.filter(v => v.set !== 'context-test').map(sentence),
    );
    expect(test.size).toBeGreaterThan(3);
    expect([...test].filter(s => other.has(s))).toEqual([]);
    const czech = variants.filter(v => v.lang === 'cs').map(sentence);
    expect(czech.every(s => /[ěščřžýáíéůú]/.test(s))).toBe(true);
  });

  it('differ from the chat variants and leave the cross-lingual set alone', () => {
    const chat = new Map(chatVariants(items).map(v => [v.id, v.question]));
    for (const v of contextVariants(items))
      expect(v.question).not.toBe(chat.get(v.id.replace('~context', '~chat')));
    expect(contextVariants([item({ set: 'cross-train' })])).toEqual([]);
  });
});

describe('sign-off variants', () => {
  it('type the question without its punctuation, then thanks, outside the test split', () => {
    const variants = signOffVariants(items);
    expect(variants.some(v => v.set === 'signoff-test')).toBe(false);
    expect(new Set(variants.map(v => v.set))).toEqual(
      new Set(['signoff-train', 'signoff-dev']),
    );
    for (const v of variants) {
      const source = items.find(i => `${i.id}~signoff` === v.id)!;
      const bare = source.question.replace(/\?$/, '');
      expect(v.question.startsWith(`${bare} `)).toBe(true);
      expect(v.question).not.toContain('?');
      expect(v).toMatchObject({ gold: source.gold, lang: source.lang });
    }
    // Each language signs off in its own words.
    const czech = variants.filter(v => v.lang === 'cs');
    expect(czech.every(v => /d[ěí]k/i.test(v.question))).toBe(true);
  });
});
