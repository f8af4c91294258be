import { idf } from './keywordSearch';
import { PostingArrays } from '../database/postingList';
import { seededRandom } from '../testUtils/seededRandom';
import {
  bestChunks,
  groupBounds,
  listHas,
  scoreChunks,
  unionLists,
} from './listScoring';

const list = (entries: Array<[number, number, number]>): PostingArrays => ({
  chunkNos: Int32Array.from(entries, e => e[0]),
  tfs: Int32Array.from(entries, e => e[1]),
  lengths: Int32Array.from(entries, e => e[2]),
});

describe('unionLists', () => {
  it('merges sorted key lists, keeping the largest tf of a chunk', () => {
    const merged = unionLists([
      list([
        [1, 1, 10],
        [5, 2, 50],
      ]),
      list([
        [2, 3, 20],
        [5, 4, 50],
        [9, 1, 90],
      ]),
    ]);
    expect([...merged.chunkNos]).toEqual([1, 2, 5, 9]);
    expect([...merged.tfs]).toEqual([1, 3, 4, 1]);
    expect([...merged.lengths]).toEqual([10, 20, 50, 90]);
  });

  it('merges three lists as two merges in a row would (the general path)', () => {
    const lists = [
      [1, 7],
      [1, 3],
      [3, 7, 8],
    ].map((nos, k) =>
      list(
        nos.map((no): [number, number, number] => [
          no,
          ((no + k) % 5) + 1,
          10 * no,
        ]),
      ),
    );
    const once = unionLists(lists);
    const twice = unionLists([unionLists(lists.slice(0, 2)), lists[2]]);
    expect([...once.chunkNos]).toEqual([1, 3, 7, 8]);
    expect([...once.tfs]).toEqual([3, 5, 5, 1]);
    expect([...once.chunkNos]).toEqual([...twice.chunkNos]);
    expect([...once.tfs]).toEqual([...twice.tfs]);
    expect([...once.lengths]).toEqual([...twice.lengths]);
  });
});

describe('bestChunks', () => {
  const options = { k1: 1.2, b: 0.75, averageLength: 40 };
  const bm25 = (w: number, tf: number, len: number) =>
    (w * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * len) / 40));

  // Chunk numbers within a span of 2^20 are scored term at a time (dense or in runs far apart),
  // wider spans document at a time.
  it.each([
    ['dense', 1],
    ['sparse', 100],
    ['wider than the slot table', 10_000],
  ])(
    'keeps the same best chunks as scoring every chunk and sorting (%s)',
    (_, spread) => {
      const random = seededRandom(7);
      const weights = [
        { weightedIdf: 2.5 },
        { weightedIdf: 0.4 },
        { weightedIdf: 1 },
      ];
      const groups = Array.from({ length: 4 }, (_, g) =>
        weights.map(() => {
          const nos = Array.from(
            new Set(
              Array.from(
                { length: 60 },
                () => spread * (g * 400 + Math.floor(random() * 300)),
              ),
            ),
          ).sort((a, b) => a - b);
          return list(
            nos.map(no => [no, 1 + Math.floor(random() * 5), 5 + (no % 70)]),
          );
        }),
      );
      const brute = new Map<number, number>();
      groups.forEach(lists =>
        lists.forEach((l, t) =>
          l.chunkNos.forEach((no, i) =>
            brute.set(
              no,
              (brute.get(no) ?? 0) +
                bm25(weights[t].weightedIdf, l.tfs[i], l.lengths[i]),
            ),
          ),
        ),
      );
      const expected = [...brute]
        .sort((x, y) => y[1] - x[1] || x[0] - y[0])
        .slice(0, 25);
      const best = bestChunks(groups, weights, { ...options, keep: 25 });
      expect(best.map(c => c.chunkNo)).toEqual(expected.map(([no]) => no));
      best.forEach((c, i) => expect(c.score).toBeCloseTo(expected[i][1], 9));
      // The group says where the chunk's lists are.
      for (const c of best) {
        expect(groups[c.group].some(l => listHas(l, c.chunkNo))).toBe(true);
      }
      // The floor is the 25th best score, each group's bound its best chunk's score.
      const bounds = groupBounds(groups, weights, { ...options, keep: 25 });
      expect(bounds.floor).toBe(best[24].score);
      groups.forEach((lists, g) => {
        const scores = [...brute]
          .filter(([no]) => lists.some(l => listHas(l, no)))
          .map(([, score]) => score);
        if (scores.length === 0) expect(bounds.best[g]).toBe(-Infinity);
        else expect(bounds.best[g]).toBeCloseTo(Math.max(...scores), 9);
      });
      expect(
        groupBounds(groups, weights, { ...options, keep: brute.size + 1 })
          .floor,
      ).toBe(-Infinity);
      // Looked up one by one: the same scores to the last bit; a chunk in no list is left out.
      const some = best
        .slice(0, 10)
        .map(c => ({ chunkNo: c.chunkNo, group: c.group }));
      const absent = { chunkNo: 99_999_999, group: 0 };
      expect(scoreChunks([...some, absent], groups, weights, options)).toEqual(
        best.slice(0, 10),
      );
    },
  );

  it('returns nothing for keep 0 or no lists', () => {
    const weights = [{ weightedIdf: 1 }];
    const groups = [[list([[1, 1, 40]])]];
    expect(bestChunks(groups, weights, { ...options, keep: 0 })).toEqual([]);
    expect(bestChunks([[undefined]], weights, { ...options, keep: 5 })).toEqual(
      [],
    );
  });
});

describe('idf', () => {
  it('stays positive when a count read mid-ingestion exceeds the corpus size', () => {
    expect(idf(10, 1)).toBeGreaterThan(idf(10, 5));
    expect(idf(10, 10)).toBeGreaterThan(0);
    // 12 of 10: as if every chunk had it, never a negative weight.
    expect(idf(10, 12)).toBe(idf(10, 10));
    expect(idf(1, 3)).toBeGreaterThan(0);
  });
});
