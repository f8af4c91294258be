import { evalItem } from './evalItemFixture';
import { osaDistance } from './leakFuzz/corpus';
import {
  slip,
  typingSet,
  typingVariants,
  withoutDiacritics,
  withTypo,
} from '../eval/questionTyping';

const item = evalItem;

describe('typing variants', () => {
  it('makes one slip in one lowercase word of six or more letters, never its first letter', () => {
    for (let n = 0; n < 200; n++) {
      const question = 'which function truncates several partitioned tables';
      const typed = withTypo(question, `item-${n}`)!;
      if (typed === undefined) continue;
      const before = question.split(' ');
      const after = typed.split(/\s+/);
      const changed = before.filter((w, i) => w !== after[i]);
      expect(changed).toHaveLength(1);
      const i = before.indexOf(changed[0]);
      expect(changed[0].length).toBeGreaterThanOrEqual(6);
      expect(after[i][0]).toBe(changed[0][0]);
      // One slip is one edit (a swap counts once).
      expect(osaDistance(changed[0], after[i])).toBe(1);
    }
  });

  it('is the same slip on every run, and different slips for different items', () => {
    const q = 'which function truncates several partitioned tables';
    expect(withTypo(q, 'a')).toBe(withTypo(q, 'a'));
    const variants = new Set(
      Array.from({ length: 30 }, (_, n) => withTypo(q, `id-${n}`)),
    );
    expect(variants.size).toBeGreaterThan(10);
  });

  it('leaves identifiers, names and short words alone', () => {
    for (const q of [
      'what does pg_stat_statements track',
      'How do I open Quick Mask',
      'is it fast',
      'mkdocs.yml nav, is it set',
    ])
      expect(withTypo(q, 'x')).toBeUndefined();
  });

  it('slips by swap, omission, doubling or a neighbouring key', () => {
    const seeds = [0, 1, 2, 3].map(op => Buffer.from([0, op, 1, 0]));
    // At the third letter ("u"): swapped, left out, doubled, its neighbour "z".
    expect(seeds.map(s => slip('truncate', s))).toEqual([
      'trnucate',
      'trncate',
      'truuncate',
      'trzncate',
    ]);
  });

  it('strips Czech diacritics, and has no variant for a question without any', () => {
    expect(withoutDiacritics('Jak otočit vrstvu?')).toBe('Jak otocit vrstvu?');
    expect(withoutDiacritics('Jak nasadit pokladnu?')).toBeUndefined();
  });

  it('reports variants in their own sets and keeps gold and answerability', () => {
    const cs = item({
      id: 'gimpcs-001',
      lang: 'cs',
      question: 'Jak otočit několik vrstev najednou?',
      set: 'items-dev',
    });
    const variants = typingVariants([item({}), cs]);
    expect(variants.map(v => [v.id, v.set])).toEqual([
      ['pg-001~typo', 'typo-train'],
      ['gimpcs-001~typo', 'typo-dev'],
      ['gimpcs-001~plain', 'plain-dev'],
    ]);
    for (const v of variants) {
      expect(v.gold).toEqual(item({}).gold);
      expect(v.answerable).toBe(true);
    }
    // English questions have no plain variant; the cross-lingual set has none at all.
    expect(typingVariants([item({ set: 'cross-train' })])).toEqual([]);
    expect(typingSet('plain', 'shared-dev')).toBe('plain-shared-dev');
  });
});
