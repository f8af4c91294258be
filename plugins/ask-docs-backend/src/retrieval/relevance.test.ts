import { ConfigReader } from '@backstage/config';
import {
  DEFAULT_RELEVANCE_THRESHOLDS,
  filterRelevant,
  isRelevant,
  readRelevanceThresholds,
} from './relevance';
import { readAskDocsConfig } from '../settings';

const thresholdsOf = (config: ConfigReader) =>
  readAskDocsConfig(config).retrieval.thresholds;

describe('readRelevanceThresholds', () => {
  const config = thresholdsOf(
    new ConfigReader({
      askDocs: {
        retrieval: {
          thresholds: {
            default: { minSimilarity: 0.6, minCoverage: 0.4 },
            'Xenova/multilingual-e5-small': { minSimilarity: 0.82 },
            'bge-small-en-v1.5': { minCoverage: 0.7 },
          },
        },
      },
    }),
  );

  it('overrides the default per model, field by field, with model ids as literal keys', () => {
    expect(
      readRelevanceThresholds(config, 'Xenova/multilingual-e5-small'),
    ).toEqual({ minSimilarity: 0.82, minCoverage: 0.4 });
    expect(readRelevanceThresholds(config, 'bge-small-en-v1.5')).toEqual({
      minSimilarity: 0.6,
      minCoverage: 0.7,
    });
    expect(readRelevanceThresholds(config, 'other')).toEqual({
      minSimilarity: 0.6,
      minCoverage: 0.4,
    });
  });

  it('falls back to built-in defaults without config', () => {
    expect(
      readRelevanceThresholds(thresholdsOf(new ConfigReader({})), 'm'),
    ).toEqual(DEFAULT_RELEVANCE_THRESHOLDS);
  });

  it('rejects invalid values instead of ignoring them', () => {
    const bad = (thresholds: unknown) =>
      thresholdsOf(
        new ConfigReader({ askDocs: { retrieval: { thresholds } } } as any),
      );
    expect(() =>
      readRelevanceThresholds(bad({ default: { minSimilarity: '0.5' } }), 'm'),
    ).toThrow(/thresholds/);
    expect(() =>
      readRelevanceThresholds(bad({ default: { minCoverage: 2 } }), 'm'),
    ).toThrow(/thresholds/);
    expect(() =>
      readRelevanceThresholds(bad({ m: { minSimilarty: 0.5 } }), 'm'),
    ).toThrow(/thresholds/);
  });
});

describe('the evidence filter', () => {
  const t = { minSimilarity: 0.8, minCoverage: 0.5 };

  it('keeps a chunk on either kind of evidence', () => {
    expect(isRelevant({ similarity: 0.85, coverage: 0 }, t)).toBe(true);
    expect(isRelevant({ similarity: 0.1, coverage: 0.5 }, t)).toBe(true);
    expect(isRelevant({ similarity: null, coverage: 0.9 }, t)).toBe(true);
  });

  it('drops chunks with neither, and returns nothing when nothing passes', () => {
    expect(isRelevant({ similarity: 0.79, coverage: 0.49 }, t)).toBe(false);
    expect(isRelevant({ similarity: null, coverage: null }, t)).toBe(false);
    expect(isRelevant({}, t)).toBe(false);
    expect(
      filterRelevant(
        [
          { similarity: 0.3, coverage: 0.1 },
          { similarity: 0.5, coverage: 0.2 },
        ],
        t,
      ),
    ).toEqual([]);
  });

  it('keeps the order of the chunks that pass', () => {
    const chunks = [
      { id: 1, similarity: 0.9 },
      { id: 2, similarity: 0.2 },
      { id: 3, coverage: 1 },
    ];
    expect(filterRelevant(chunks, t).map(c => c.id)).toEqual([1, 3]);
  });
});
