import { PostingArrays } from '../database/postingList';
import { seededRandom } from '../testUtils/seededRandom';
import {
  allScores,
  bestChunks,
  kthLargest,
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
});

describe('bestChunks', () => {
  const options = { k1: 1.2, b: 0.75, averageLength: 40 };
  const bm25 = (w: number, tf: number, len: number) =>
    (w * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * len) / 40));

  // Dense chunk numbers are scored term at a time, sparse ones document at a time.
  it.each([
    ['dense', 1],
    ['sparse', 100],
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
                () => g * 100_000 + spread * Math.floor(random() * 300),
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
      // Every matching chunk, with the same score as the best list and the brute force.
      const all = allScores(groups, weights, options);
      expect(all.chunkNos.length).toBe(brute.size);
      all.chunkNos.forEach((no, i) => {
        expect(all.scores[i]).toBeCloseTo(brute.get(no)!, 9);
        expect(groups[all.groups[i]].some(l => listHas(l, no))).toBe(true);
      });
      for (const c of best)
        expect(all.scores[all.chunkNos.indexOf(c.chunkNo)]).toBe(c.score);
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

describe('kthLargest', () => {
  it('finds the k-th largest value, duplicates counted, as sorting would', () => {
    const random = seededRandom(11);
    const values = Float64Array.from({ length: 500 }, () =>
      Math.floor(random() * 50),
    );
    const sorted = [...values].sort((x, y) => y - x);
    for (const k of [1, 2, 90, 250, 499, 500]) {
      expect(kthLargest(values, k)).toBe(sorted[k - 1]);
    }
    expect(kthLargest(values, 501)).toBe(-Infinity);
    expect(kthLargest(values, 0)).toBe(-Infinity);
  });
});

describe('listHas', () => {
  it('finds chunk numbers of a sorted list and nothing else', () => {
    const l = list([
      [2, 1, 1],
      [8, 1, 1],
      [40, 1, 1],
    ]);
    expect([2, 8, 40].map(no => listHas(l, no))).toEqual([true, true, true]);
    expect([0, 3, 41].map(no => listHas(l, no))).toEqual([false, false, false]);
    expect(listHas(undefined, 2)).toBe(false);
  });
});
