import { reciprocalRankFusion } from './fusion';

describe('reciprocalRankFusion', () => {
  it('ranks items found by both lists above items ranked first by only one', () => {
    const fused = reciprocalRankFusion([
      ['a', 'b', 'c'],
      ['c', 'a', 'd'],
    ]);
    // a: 1/61 + 1/62, c: 1/63 + 1/61, b: 1/62, d: 1/63
    expect(fused.map(f => f.id)).toEqual(['a', 'c', 'b', 'd']);
    expect(fused[0].score).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(fused[0].ranks).toEqual([1, 2]);
    expect(fused[3].ranks).toEqual([undefined, 3]);
  });

  it('uses k: a small k lets a single first place win over two middling ranks', () => {
    const lists = [
      ['x', 'm'],
      ['y', 'n', 'm'],
    ];
    expect(reciprocalRankFusion(lists, { k: 60 })[0].id).toBe('m');
    expect(reciprocalRankFusion(lists, { k: 0 })[0].id).not.toBe('m');
  });

  it('breaks ties by best single rank, then id, and counts repeated ids once', () => {
    const fused = reciprocalRankFusion([
      ['q', 'p', 'p'],
      ['p', 'q'],
    ]);
    expect(fused.map(f => [f.id, f.ranks])).toEqual([
      ['p', [2, 1]],
      ['q', [1, 2]],
    ]);
    expect(fused[0].score).toBeCloseTo(fused[1].score, 12);
  });

  it('handles empty input and rejects an invalid k', () => {
    expect(reciprocalRankFusion([])).toEqual([]);
    expect(reciprocalRankFusion([[], []])).toEqual([]);
    expect(() => reciprocalRankFusion([['a']], { k: -1 })).toThrow();
  });
});
