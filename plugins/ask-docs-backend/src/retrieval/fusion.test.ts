import { ConfigReader } from '@backstage/config';
import { readAskDocsConfig } from '../settings';
import { DEFAULT_FUSION_WEIGHTS, readFusionWeights, reciprocalRankFusion } from './fusion';

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

describe('weighted reciprocal rank fusion', () => {
  it('scales each list by its weight: a light list reorders near-ties but cannot overturn a clear lead', () => {
    const keyword = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    const vector = ['j', 'b'];
    const equal = reciprocalRankFusion([vector, keyword]).map(f => f.id);
    expect(equal.slice(0, 2)).toEqual(['b', 'j']);
    const light = reciprocalRankFusion([vector, keyword], { weights: [0.1, 1] }).map(f => f.id);
    // b (2nd in both) overtakes a; j (keyword 10th, vector 1st) rises past c but not past a:
    // 1/70 + 0.1/61 = 0.0159 > 1/63 = 0.0159 (c) and < 1/61 = 0.0164 (a).
    expect(light.slice(0, 4)).toEqual(['b', 'a', 'j', 'c']);
    expect(equal.slice(0, 3)).toEqual(['b', 'j', 'a']);
    const score = reciprocalRankFusion([vector, keyword], { weights: [0.1, 1] }).find(f => f.id === 'b')!.score;
    expect(score).toBeCloseTo(0.1 / 62 + 1 / 62, 12);
  });

  it('weight 0 removes a list from the score but keeps its items as candidates', () => {
    const fused = reciprocalRankFusion([['x'], ['a', 'b']], { weights: [0, 1] });
    expect(fused.map(f => f.id)).toEqual(['a', 'b', 'x']);
    expect(fused[2].score).toBe(0);
  });

  it('rejects weights that do not fit the lists', () => {
    expect(() => reciprocalRankFusion([['a'], ['b']], { weights: [1] })).toThrow(/weights/);
    expect(() => reciprocalRankFusion([['a']], { weights: [-1] })).toThrow(/weights/);
    expect(() => reciprocalRankFusion([['a']], { weights: [NaN] })).toThrow(/weights/);
  });
});

describe('readFusionWeights', () => {
  const hashing = { modelId: 'hashing-fallback-v2-en+cs-384', kind: 'hashing-fallback' as const };
  const e5 = { modelId: 'Xenova/multilingual-e5-small', kind: 'transformers' as const };
  const cfg = (fusionWeights?: unknown) =>
    readAskDocsConfig(new ConfigReader(fusionWeights === undefined ? {} : { askDocs: { retrieval: { fusionWeights } } }))
      .retrieval.fusionWeights;

  it('defaults by embedder kind: equal for a semantic model, light vector weight for the hashing fallback', () => {
    expect(readFusionWeights(cfg(), e5)).toEqual(DEFAULT_FUSION_WEIGHTS.transformers);
    expect(readFusionWeights(cfg(), e5)).toEqual({ vector: 1, keyword: 1 });
    expect(readFusionWeights(cfg(), hashing)).toEqual({ vector: 0.1, keyword: 1 });
  });

  it('takes the model entry over the default entry, field by field (model ids with dots and slashes as literal keys)', () => {
    const c = cfg({ default: { vector: 0.5 }, 'Xenova/multilingual-e5-small': { keyword: 2 } });
    expect(readFusionWeights(c, e5)).toEqual({ vector: 0.5, keyword: 2 });
    expect(readFusionWeights(c, hashing)).toEqual({ vector: 0.5, keyword: 1 });
  });

  it('fails at startup on invalid values', () => {
    expect(() => readFusionWeights(cfg({ default: { vector: -1 } }), e5)).toThrow(/fusionWeights/);
    expect(() => readFusionWeights(cfg({ default: { vectr: 1 } }), e5)).toThrow(/fusionWeights/);
    expect(() => readFusionWeights(cfg({ default: { vector: 0, keyword: 0 } }), e5)).toThrow(/both be 0/);
  });
});
