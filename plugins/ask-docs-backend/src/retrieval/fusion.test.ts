import { ConfigReader } from '@backstage/config';
import { readAskDocsConfig, resolveRetrievalSettings } from '../settings';
import {
  boostByTitle,
  boostFused,
  DEFAULT_FUSION_WEIGHTS,
  DEFAULT_SCORE_FUSION_WEIGHTS,
  maxFusedScore,
  readFusionWeights,
  reciprocalRankFusion,
  scoreFusion,
  titleCoverage,
} from './fusion';

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
  it(`scales each list by its weight: a light list reorders near-ties but cannot overturn a clear \
lead`, () => {
    const keyword = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    const vector = ['j', 'b'];
    const equal = reciprocalRankFusion([vector, keyword]).map(f => f.id);
    expect(equal.slice(0, 2)).toEqual(['b', 'j']);
    const light = reciprocalRankFusion([vector, keyword], {
      weights: [0.1, 1],
    }).map(f => f.id);
    // b (2nd in both) overtakes a; j (keyword 10th, vector 1st) rises past c but not past a:
    // 1/70 + 0.1/61 = 0.0159 > 1/63 = 0.0159 (c) and < 1/61 = 0.0164 (a).
    expect(light.slice(0, 4)).toEqual(['b', 'a', 'j', 'c']);
    expect(equal.slice(0, 3)).toEqual(['b', 'j', 'a']);
    const score = reciprocalRankFusion([vector, keyword], {
      weights: [0.1, 1],
    }).find(f => f.id === 'b')!.score;
    expect(score).toBeCloseTo(0.1 / 62 + 1 / 62, 12);
  });

  it('weight 0 removes a list from the score but keeps its items as candidates', () => {
    const fused = reciprocalRankFusion([['x'], ['a', 'b']], {
      weights: [0, 1],
    });
    expect(fused.map(f => f.id)).toEqual(['a', 'b', 'x']);
    expect(fused[2].score).toBe(0);
  });

  it('rejects weights that do not fit the lists', () => {
    expect(() =>
      reciprocalRankFusion([['a'], ['b']], { weights: [1] }),
    ).toThrow(/weights/);
    expect(() => reciprocalRankFusion([['a']], { weights: [-1] })).toThrow(
      /weights/,
    );
    expect(() => reciprocalRankFusion([['a']], { weights: [NaN] })).toThrow(
      /weights/,
    );
  });
});

describe('readFusionWeights', () => {
  const hashing = {
    modelId: 'hashing-fallback-v2-en+cs-384',
    kind: 'hashing-fallback' as const,
  };
  const e5 = {
    modelId: 'Xenova/multilingual-e5-small',
    kind: 'transformers' as const,
  };
  const cfg = (fusionWeights?: unknown) =>
    readAskDocsConfig(
      new ConfigReader(
        fusionWeights === undefined
          ? {}
          : { askDocs: { retrieval: { fusionWeights } } },
      ),
    ).retrieval.fusionWeights;

  it(`defaults by embedder kind: equal for a semantic model, light vector weight for the hashing \
fallback`, () => {
    expect(readFusionWeights(cfg(), e5)).toEqual(
      DEFAULT_FUSION_WEIGHTS.transformers,
    );
    expect(readFusionWeights(cfg(), e5)).toEqual({ vector: 1, keyword: 1 });
    expect(readFusionWeights(cfg(), hashing)).toEqual({
      vector: 0.1,
      keyword: 1,
    });
  });

  it(`takes the model entry over the default entry, field by field (model ids with dots and \
slashes as literal keys)`, () => {
    const c = cfg({
      default: { vector: 0.5 },
      'Xenova/multilingual-e5-small': { keyword: 2 },
    });
    expect(readFusionWeights(c, e5)).toEqual({ vector: 0.5, keyword: 2 });
    expect(readFusionWeights(c, hashing)).toEqual({ vector: 0.5, keyword: 1 });
  });

  it('fails at startup on invalid values', () => {
    expect(() =>
      readFusionWeights(cfg({ default: { vector: -1 } }), e5),
    ).toThrow(/fusionWeights/);
    expect(() => readFusionWeights(cfg({ default: { vectr: 1 } }), e5)).toThrow(
      /fusionWeights/,
    );
    expect(() =>
      readFusionWeights(cfg({ default: { vector: 0, keyword: 0 } }), e5),
    ).toThrow(/both be 0/);
  });
});

describe('section-title evidence', () => {
  const token = (t: string, lemmas: string[], stems: string[]) => ({
    token: t,
    lemmas,
    stems,
    words: [t],
  });
  const deploy = token('nasadit', ['nasadit'], ['nasadit']);
  const till = token('pokladnu', ['pokladna'], ['pokladn']);
  const idf = (t: string) =>
    (({ nasadit: 3, pokladnu: 1 } as Record<string, number>)[t] ?? 0);

  it('weights the question words a section path names by idf', () => {
    // "Pokladna" starts with the stem "pokladn"; the lemma "nasadit" is named as such.
    expect(titleCoverage([deploy, till], idf, 'Pokladna › Nasadit')).toBe(1);
    expect(
      titleCoverage([deploy, till], idf, 'Pokladna › Přehled'),
    ).toBeCloseTo(0.25);
    expect(titleCoverage([deploy, till], idf, 'Nasadit')).toBeCloseTo(0.75);
  });

  it('does not count a short stem as a prefix, nor a title word inside a key', () => {
    const pes = token('pes', ['pes'], ['pes']);
    const one = () => 1;
    expect(titleCoverage([pes], one, 'Pesto a omáčky')).toBe(0);
    expect(titleCoverage([pes], one, 'Pes na pracovišti')).toBe(1);
    expect(titleCoverage([till], one, 'Pokl')).toBe(0);
    expect(titleCoverage([till], one, '')).toBe(0);
  });

  it('counts a word the corpus lacks against every title, and ignores idf 0 words', () => {
    const absent = token('licence', ['licence'], ['licenc']);
    const idfs = (t: string) =>
      t === 'licence' ? 4 : t === 'pokladnu' ? 1 : 0;
    expect(titleCoverage([till, absent], idfs, 'Pokladna')).toBeCloseTo(0.2);
    expect(titleCoverage([till, deploy], idfs, 'Pokladna')).toBe(1);
  });

  it('lifts a titled chunk by weight × max score × coverage, keeping ties in order', () => {
    const fused = [
      { id: 'a', rrf: 0.0164 },
      { id: 'b', rrf: 0.016 },
      { id: 'c', rrf: 0.0156 },
      { id: 'd', rrf: 0.0156 },
    ];
    const coverage = new Map([
      ['c', 1],
      ['b', 0.5],
    ]);
    const boosted = boostByTitle(fused, coverage, 0.05, 0.018);
    expect(boosted.map(f => f.id)).toEqual(['c', 'b', 'a', 'd']);
    expect(boosted[0].rrf).toBeCloseTo(0.0156 + 0.0009, 10); // above b's 0.016 + 0.00045
    // Weight 0 (or no titles): the fused order and scores, untouched.
    expect(boostByTitle(fused, coverage, 0, 0.018)).toEqual(fused);
    expect(boostByTitle(fused, new Map(), 0.05, 0.018)).toEqual(fused);
    expect(fused[2].rrf).toBe(0.0156); // the input is not modified
  });

  it('adds several boosts, each by its own weight, and skips weights of 0', () => {
    const fused = [
      { id: 'a', rrf: 0.0164 },
      { id: 'b', rrf: 0.016 },
      { id: 'c', rrf: 0.0156 },
    ];
    const title = { values: new Map([['b', 1]]), weight: 0.05 };
    const phrase = { values: new Map([['c', 1]]), weight: 0.15 };
    const boosted = boostFused(fused, [title, phrase], 0.018);
    // c gains 0.15 × 0.018 = 0.0027, b 0.0009: c, b, a.
    expect(boosted.map(f => [f.id, f.rrf])).toEqual([
      ['c', expect.closeTo(0.0183, 10)],
      ['b', expect.closeTo(0.0169, 10)],
      ['a', 0.0164],
    ]);
    expect(boostFused(fused, [{ ...phrase, weight: 0 }], 0.018)).toEqual(fused);
    expect(boostFused(fused, [], 0.018)).toEqual(fused);
  });
});

describe('score fusion', () => {
  const none = {
    title: new Map<string, number>(),
    phrase: new Map<string, number>(),
  };
  const c = (
    id: string,
    keywordScore: number | null,
    similarity: number | null,
    coverage: number | null = 0,
  ) => ({ id, keywordScore, similarity, coverage });

  it(
    'keeps a clear keyword lead that rank fusion would give away to a small boost, ' +
      'and lets near-ties be decided by the other scores',
    () => {
      // a's BM25 score is twice b's; b has a phrase. RRF sees ranks 1 and 2 only.
      const clear = scoreFusion([c('a', 20, 0.3), c('b', 10, 0.3)], {
        ...none,
        phrase: new Map([['b', 0.5]]),
      });
      expect(clear.map(x => x.id)).toEqual(['a', 'b']);
      // 1 + 1 (relative scores) vs 0.5 + 1 + 0.6 × 0.5.
      expect(clear[0].rrf).toBeCloseTo(2, 10);
      expect(clear[1].rrf).toBeCloseTo(1.8, 10);
      // Nearly equal keyword scores: the phrase decides.
      const close = scoreFusion([c('a', 20, 0.3), c('b', 19, 0.3)], {
        ...none,
        phrase: new Map([['b', 0.5]]),
      });
      expect(close.map(x => x.id)).toEqual(['b', 'a']);
    },
  );

  it('adds each term by its weight: similarity, coverage, phrase and section title', () => {
    const weights = { keyword: 0, vector: 2, coverage: 3, phrase: 5, title: 7 };
    const [only] = scoreFusion(
      [c('x', 4, 0.2, 0.5), c('y', 8, 0.4, 0)],
      { title: new Map([['x', 0.1]]), phrase: new Map([['x', 0.2]]) },
      weights,
    ).filter(x => x.id === 'x');
    // 2 × 0.2/0.4 + 3 × 0.5 + 5 × 0.2 + 7 × 0.1
    expect(only.rrf).toBeCloseTo(1 + 1.5 + 1 + 0.7, 10);
    expect(maxFusedScore(weights)).toBe(17);
    expect(maxFusedScore(DEFAULT_SCORE_FUSION_WEIGHTS)).toBeCloseTo(3.8, 10);
  });

  it(
    'counts missing scores as 0, never below 0, ' +
      'and a retriever with no positive score not at all',
    () => {
      const fused = scoreFusion(
        [c('a', null, -0.2, null), c('b', 0, null, null), c('c', 0, 0, 0)],
        none,
      );
      expect(fused.map(x => x.rrf)).toEqual([0, 0, 0]);
      // Equal scores keep the input (RRF) order; the input is not modified.
      expect(fused.map(x => x.id)).toEqual(['a', 'b', 'c']);
      const input = [c('a', 1, 0.1)];
      expect(scoreFusion(input, none)[0]).not.toBe(input[0]);
      expect(input[0]).toEqual(c('a', 1, 0.1));
      expect(scoreFusion([], none)).toEqual([]);
    },
  );

  it(`is the default for the hashing fallback only; askDocs.retrieval.fusion overrides it and \
rejects other values`, () => {
    const settings = (
      retrieval: object,
      kind: 'hashing-fallback' | 'transformers',
    ) =>
      resolveRetrievalSettings(
        readAskDocsConfig(new ConfigReader({ askDocs: { retrieval } }))
          .retrieval,
        { modelId: 'm', kind },
      ).fusion;
    expect(settings({}, 'hashing-fallback')).toBe('scores');
    expect(settings({}, 'transformers')).toBe('rrf');
    expect(settings({ fusion: 'rrf' }, 'hashing-fallback')).toBe('rrf');
    expect(settings({ fusion: 'scores' }, 'transformers')).toBe('scores');
    expect(() => settings({ fusion: 'sum' }, 'transformers')).toThrow(
      /retrieval\.fusion/,
    );
  });
});
