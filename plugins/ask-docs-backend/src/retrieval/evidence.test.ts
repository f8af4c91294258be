import { ConfigReader } from '@backstage/config';
import {
  EVIDENCE_FEATURES,
  EvidenceFeatures,
  evidenceFeatures,
  EvidenceModel,
  evidenceProbability,
  featureNames,
  identifierMissing,
  nameMissing,
  questionIdentifiers,
  questionNames,
} from './evidence';
import { FITTED_EVIDENCE_MODELS } from './evidenceModel.fitted';
import { readRetrievalSettings } from '../settings';
import type { EmbedderKind } from '../embedding';
import { readRelevanceThresholds } from './relevance';

const stat = (
  token: string,
  idf: number,
  match: 'exact' | 'prefix' | 'none' = 'exact',
) => ({
  token,
  idf,
  match,
  df: 1,
  weight: match === 'none' ? 0 : 1,
});

describe('evidenceFeatures', () => {
  const base = {
    fused: [
      { id: 'a', rrf: 1.1 / 61, similarity: 0.4, coverage: 0.6 },
      { id: 'b', rrf: 0.5 / 62, similarity: 0.5, coverage: 1 },
    ],
    vectorIds: ['b', 'x', 'a'],
    keywordHits: [
      { chunkId: 'a', score: 10 },
      { chunkId: 'b', score: 6 },
    ],
    corrections: 0,
    tokens: 3,
    maxFused: 1.1 / 61,
  };

  it('measures coverage, agreement and margins of the fused candidates', () => {
    const f = evidenceFeatures({
      ...base,
      statistics: {
        tokens: [
          stat('vacuum', 2),
          stat('parallel', 1),
          stat('pg_stat_io', 4, 'none'),
        ],
      },
      question: 'How do I vacuum in parallel?',
    });
    expect(f.coverageTop).toBe(0.6);
    expect(f.coverageMax5).toBe(1);
    expect(f.similarityMax).toBe(0.5);
    expect(f.keywordMargin).toBeCloseTo(0.4);
    // The keyword list's best chunk is third in the vector list.
    expect(f.keywordTopInVector).toBeCloseTo(1 / 3);
    expect(f.overlap10).toBeCloseTo(0.2);
    expect(f.fusedTop).toBeCloseTo(1);
    expect(f.missingShare).toBeCloseTo(4 / 7);
    expect(f.czech).toBe(0);
  });

  it('finds the most specific word the best-covering chunk lacks', () => {
    const searched = { tokens: [stat('pokladna', 1), stat('licence', 3)] };
    const lacking = evidenceFeatures({
      ...base,
      searched,
      matchedTokens: new Map([['b', ['pokladna']]]),
      question: 'Kolik stojí licence pokladny?',
    });
    expect(lacking.uncoveredMaxIdf).toBe(1);
    expect(lacking.uncoveredShare).toBe(0.5);
    expect(lacking.czech).toBe(1);
    const covered = evidenceFeatures({
      ...base,
      searched,
      matchedTokens: new Map([['b', ['pokladna', 'licence']]]),
    });
    expect(covered.uncoveredMaxIdf).toBe(0);
    expect(covered.uncoveredShare).toBe(0);
  });

  it('gives the same features to a question however it is worded', () => {
    // Most hand-written unanswerable questions begin "How do I"; a decision that learnt the
    // wording would refuse real users' how-questions (decision record 0009, eighth round).
    const same = (a: string, b: string) =>
      expect(evidenceFeatures({ ...base, question: a })).toEqual(
        evidenceFeatures({ ...base, question: b }),
      );
    same('How do I vacuum in parallel?', 'vacuum in parallel');
    same('Can vacuum run in parallel?', 'vacuum in parallel');
    same('Jak nasadit pokladnu?', 'nasadit pokladnu');
    same('Lze nasadit pokladnu?', 'Kdy nasadit pokladnu?');
  });

  it("finds the best sentence of the top 5 candidates by the query tokens' keys", () => {
    const tok = (t: string, stem = t) => ({
      token: t,
      lemmas: [t],
      stems: [stem],
    });
    const queryTokens = [
      tok('refresh'),
      tok('materialized', 'materializ'),
      tok('view'),
    ];
    const searched = {
      tokens: [stat('refresh', 2), stat('materialized', 3), stat('view', 1)],
    };
    const fused = ['a', 'b', 'c', 'd', 'e', 'f'].map(id => ({
      id,
      rrf: 0.01,
      similarity: 0.3,
      coverage: 1,
    }));
    const sentence = (passages: Array<{ chunkId: string; text: string }>) =>
      evidenceFeatures({ ...base, fused, searched, queryTokens, passages })
        .sentenceMax5;
    // Every word somewhere in the chunk, but never in one statement: the best sentence has 3/6.
    const spread = 'Refresh it nightly. A materialized table. Create a view.';
    expect(sentence([{ chunkId: 'a', text: spread }])).toBeCloseTo(0.5);
    expect(
      sentence([
        { chunkId: 'a', text: spread },
        {
          chunkId: 'c',
          text: 'REFRESH MATERIALIZED VIEW replaces the contents.',
        },
      ]),
    ).toBe(1);
    // The sixth candidate and passages of chunks that are not candidates do not count.
    expect(
      sentence([
        { chunkId: 'f', text: 'Refresh a materialized view.' },
        { chunkId: 'zz', text: 'Refresh a materialized view.' },
      ]),
    ).toBe(0);
    // Without passages or query tokens (no keyword side) the feature is 0.
    expect(evidenceFeatures({ ...base, fused, searched }).sentenceMax5).toBe(0);
  });

  it('has neutral values without candidates, lists or question', () => {
    const f = evidenceFeatures({
      fused: [],
      vectorIds: [],
      keywordHits: [],
      corrections: 0,
      tokens: 0,
      maxFused: 0,
    });
    for (const name of EVIDENCE_FEATURES)
      expect(Number.isFinite(f[name])).toBe(true);
    expect(f.coverageMax).toBe(0);
  });
});

describe('identifiers the question names', () => {
  it('finds snake_case words, calls and long options, once each and lowercase', () => {
    expect(
      questionIdentifiers(
        'Does Pg_Stat_IO show it, or uuidv7() or --parallel? pg_stat_io again',
      ),
    ).toEqual(['pg_stat_io', 'uuidv7', '--parallel']);
    // As retrieve() gets it: with diacritics the Czech dictionary restored ("stat" → "stát").
    expect(questionIdentifiers('enable pg_stát_statements, děv_addr')).toEqual([
      'pg_stat_statements',
      'dev_addr',
    ]);
  });

  it('finds nothing in plain prose, hyphenated words, Czech text or a dash', () => {
    expect(questionIdentifiers('How do I vacuum a table in parallel?')).toEqual(
      [],
    );
    expect(questionIdentifiers('read-only well-known e-mail - x')).toEqual([]);
    expect(questionIdentifiers('Jak nasadit pokladnu?')).toEqual([]);
    expect(questionIdentifiers('a trailing_ or _leading word')).toEqual([]);
  });

  it('is the share of identifiers no candidate contains as a whole word', () => {
    const texts = [
      'Parameters › SKIP_LOCKED\nSpecifies that VACUUM should not wait.',
      'pg_restore -j njobs --jobs=njobs runs parts in parallel.',
    ];
    // Case does not matter; an option followed by "=" is still a whole word.
    expect(identifierMissing('what does skip_locked do?', texts)).toBe(0);
    expect(identifierMissing('pg_restore --jobs', texts)).toBe(0);
    // Absent, or only inside a longer identifier: missing.
    expect(identifierMissing('set transaction_timeout', texts)).toBe(1);
    expect(identifierMissing('skip_locked and skip_lock', texts)).toBe(0.5);
    expect(identifierMissing('use --job', texts)).toBe(1);
    // No identifiers, or no candidates: nothing to miss, or all missing.
    expect(identifierMissing('how do I vacuum?', texts)).toBe(0);
    expect(identifierMissing('pg_restore', [])).toBe(1);
  });

  it('finds an identifier with one part misspelt by one edit, and nothing else', () => {
    const texts = [
      'Encodings › SQL_ASCII\nThe SQL_ASCII setting behaves considerably differently.',
      'The pg_stat_activity view, pg_statio_all_tables, max_wal_size and pg_stat_ssl.',
      'uuidv4(), pg_restore --jobs and --no-password; see release_2024.',
    ];
    const found = [
      'is SQL_ASCI a good client encoding', // a letter missing
      'pg_stat_activty columns',
      'pg_stat_activtiy columns', // a transposition
      'pg_stat_activitx columns', // a substitution
      'pg_stat_activityy columns', // a letter more
      'use --no-pasword', // in a long option
    ];
    const missing = [
      'pg_stat_actvty columns', // two edits
      'the pg_stat_io view', // another structure: pg_statio
      'pg_stta_activty', // edits in two parts
      'pg_stat_sst', // a part shorter than four letters
      'raise min_wal_size',
      'uuidv7()', // one word, and a number
      '--job', // one word
      'release_2025', // a number
      'pg_stat_activityview',
    ];
    const missingShare = (questions: string[]) =>
      questions.map(q => [q, identifierMissing(q, texts)]);
    expect(missingShare(found)).toEqual(found.map(q => [q, 0]));
    expect(missingShare(missing)).toEqual(missing.map(q => [q, 1]));
  });

  it('is an evidence feature over the candidate texts retrieve() passes', () => {
    const f = (texts?: string[]) =>
      evidenceFeatures({
        fused: [],
        vectorIds: [],
        keywordHits: [],
        corrections: 0,
        tokens: 2,
        maxFused: 0,
        question: 'How do I enable sync_replication_slots?',
        passages: texts?.map((text, i) => ({ chunkId: `c${i}`, text })),
      }).identifierMissing;
    expect(f(['hot_standby_feedback and slots'])).toBe(1);
    expect(f(['Set sync_replication_slots = on.'])).toBe(0);
    expect(f()).toBe(1);
  });
});

describe('names the question capitalises', () => {
  it('finds capitalised words inside a sentence, folded, once each', () => {
    expect(
      questionNames(
        'How do I add a custom domain to a Vercel deployment on Vercel?',
      ),
    ).toEqual(['vercel']);
    expect(questionNames('Kolik platí Pyvec měsíčně za verzi Slacku?')).toEqual(
      ['pyvec', 'slacku'],
    );
    expect(
      questionNames('Jak v GIMPu otevřít soubor z aplikace „Procreate“?'),
    ).toEqual(['gimpu', 'procreate']);
  });

  it('skips the first word, sentence starts, short acronyms and dotted names', () => {
    expect(questionNames('Which filter blurs the image?')).toEqual([]);
    expect(questionNames('I have a table. Which index helps?')).toEqual([]);
    expect(questionNames('inlining a CTE with SQL in a UUID')).toEqual([]);
    expect(questionNames('Kde na Sli.do zapnu zobrazení dotazů?')).toEqual([]);
    expect(questionNames('jak zesilit ucinek filtru vitr')).toEqual([]);
  });

  it('is 1 when a name is in no candidate as a whole word', () => {
    const texts = [
      'Canvas Size › Resizing the canvas of an image',
      'Slack\nPyvec má placený Slack pro organizátory; sraz v Brně.',
    ];
    // "Canva" only as the start of "canvas": missing; English names keep their spelling.
    expect(nameMissing('How do I make a logo in Canva?', texts)).toBe(1);
    expect(nameMissing('Does Slacker post here?', texts)).toBe(1);
    expect(nameMissing('How do I resize the Canvas?', texts)).toBe(0);
    // Czech names with another ending, in a Czech question.
    expect(
      nameMissing('Kolik platí Pyvec měsíčně za verzi Slacku?', texts),
    ).toBe(0);
    expect(nameMissing('Kde je sraz v Brně?', texts)).toBe(0);
    expect(nameMissing('Kde je sraz v Ostravě?', texts)).toBe(1);
    // No names, or names in every case: nothing missing.
    expect(nameMissing('how do I resize an image?', texts)).toBe(0);
    expect(nameMissing('How do I make a logo in Canva?', [])).toBe(1);
  });

  it('is an evidence feature over the candidate section paths and texts', () => {
    const f = (passages?: Array<{ sectionPath?: string; text?: string }>) =>
      evidenceFeatures({
        fused: [],
        vectorIds: [],
        keywordHits: [],
        corrections: 0,
        tokens: 2,
        maxFused: 0,
        question: 'How do I configure MongoDB replica sets?',
        passages: passages?.map((p, i) => ({ chunkId: `c${i}`, ...p })),
      }).nameMissing;
    expect(
      f([{ text: 'Replication sets up a replica of the database.' }]),
    ).toBe(1);
    expect(
      f([{ sectionPath: 'Migrating from MongoDB', text: 'Use COPY.' }]),
    ).toBe(0);
    expect(f()).toBe(1);
  });
});

describe('evidenceProbability', () => {
  const model: EvidenceModel = {
    features: ['coverageMax', 'missingShare'],
    mean: [0.5, 0],
    scale: [0.25, 1],
    weights: [2, -3],
    bias: 0,
    cutoff: 0.5,
    fittedOn: 'unit test',
  };
  const x = (coverageMax: number, missingShare: number) =>
    ({
      ...Object.fromEntries(EVIDENCE_FEATURES.map(n => [n, 0])),
      coverageMax,
      missingShare,
    } as EvidenceFeatures);

  it('is the logistic function of the standardised, weighted features', () => {
    expect(evidenceProbability(model, x(0.5, 0))).toBeCloseTo(0.5);
    expect(evidenceProbability(model, x(0.75, 0))).toBeCloseTo(
      1 / (1 + Math.exp(-2)),
    );
    // A missing distinctive word pulls a well-covered question below the cutoff.
    expect(evidenceProbability(model, x(0.75, 1))).toBeLessThan(model.cutoff);
  });

  it('ships a fitted model for the hashing fallback with consistent dimensions', () => {
    const fitted = FITTED_EVIDENCE_MODELS['hashing-fallback']!;
    expect(fitted).toBeDefined();
    const n = fitted.features.length;
    expect([
      fitted.mean.length,
      fitted.scale.length,
      fitted.weights.length,
    ]).toEqual([n, n, n]);
    for (const f of fitted.features) expect(EVIDENCE_FEATURES).toContain(f);
    expect(fitted.cutoff).toBeGreaterThan(0);
    expect(fitted.cutoff).toBeLessThan(1);
  });

  it("reads a fitted model's feature list in its order and refuses names it does not know", () => {
    expect(featureNames(' czech  coverageTop\ntitleMax5 ')).toEqual([
      'czech',
      'coverageTop',
      'titleMax5',
    ]);
    expect(featureNames(EVIDENCE_FEATURES.join(' '))).toEqual([
      ...EVIDENCE_FEATURES,
    ]);
    expect(() => featureNames('coverageTop coverageTops fusedTop')).toThrow(
      'unknown evidence feature(s): coverageTops',
    );
    expect(() => featureNames('')).toThrow(/unknown evidence feature/);
  });
});

describe('retrieval settings: fitted model or configured thresholds', () => {
  const hashing = {
    modelId: 'hashing-fallback-v2-en+cs-384',
    kind: 'hashing-fallback' as const,
  };
  const fitted = (retrieval: object = {}) => ({
    askDocs: { retrieval: { evidenceDecision: 'fitted', ...retrieval } },
  });

  const settings = (
    config: object,
    embedder: { modelId: string; kind: EmbedderKind } = hashing,
  ) => readRetrievalSettings(new ConfigReader(config), embedder);

  it('uses the fitted model by default for the embedding model it was fitted on', () => {
    const shipped = FITTED_EVIDENCE_MODELS['hashing-fallback']!;
    expect(shipped.modelId).toBe(hashing.modelId);
    expect(settings({}).evidenceModel).toBe(shipped);
  });

  it('keeps the thresholds by default for models without fitted numbers', () => {
    // The same kind at another dimension or language list: other vectors, other features.
    for (const modelId of [
      'hashing-fallback-v2-en+cs-512',
      'hashing-fallback-v2-en-384',
    ]) {
      const s = settings({}, { modelId, kind: 'hashing-fallback' });
      expect(s.evidenceModel).toBeUndefined();
      expect(s.thresholds).toEqual(readRelevanceThresholds({}, modelId));
    }
    const transformers = { modelId: 'Xenova/x', kind: 'transformers' as const };
    expect(settings({}, transformers).evidenceModel).toBeUndefined();
  });

  it('lets an explicit thresholds decision win over the default', () => {
    const chosen = {
      askDocs: { retrieval: { evidenceDecision: 'thresholds' } },
    };
    expect(settings(chosen).evidenceModel).toBeUndefined();
    const configured = {
      askDocs: { retrieval: { thresholds: { default: { minCoverage: 0.6 } } } },
    };
    expect(settings(configured)).toMatchObject({
      evidenceModel: undefined,
      thresholds: { minCoverage: 0.6 },
    });
  });

  it(`uses the fitted model for the embedder kind when chosen and no thresholds are \
configured`, () => {
    const s = readRetrievalSettings(new ConfigReader(fitted()), hashing);
    expect(s.evidenceModel).toBe(FITTED_EVIDENCE_MODELS['hashing-fallback']);
    // Chosen explicitly, it also serves another model of its kind (the operator's call).
    const other = { modelId: 'hashing-fallback-v2-en-384', kind: hashing.kind };
    expect(settings(fitted(), other).evidenceModel).toBe(s.evidenceModel);
  });

  it('refuses an unknown evidence decision', () => {
    const bad = { askDocs: { retrieval: { evidenceDecision: 'magic' } } };
    expect(() => readRetrievalSettings(new ConfigReader(bad), hashing)).toThrow(
      /askDocs.retrieval.evidenceDecision/,
    );
  });

  it('lets configured thresholds (for the model or as default) replace the fitted model', () => {
    const own = fitted({
      thresholds: { [hashing.modelId]: { minCoverage: 0.6 } },
    });
    const def = fitted({ thresholds: { default: { minSimilarity: 0.7 } } });
    expect(readRetrievalSettings(new ConfigReader(own), hashing)).toMatchObject(
      {
        evidenceModel: undefined,
        thresholds: { minCoverage: 0.6 },
      },
    );
    expect(
      readRetrievalSettings(new ConfigReader(def), hashing).evidenceModel,
    ).toBeUndefined();
    // Another model's entry does not switch this one off.
    const other = fitted({
      thresholds: { 'other-model': { minCoverage: 0.9 } },
    });
    expect(
      readRetrievalSettings(new ConfigReader(other), hashing).evidenceModel,
    ).toBeDefined();
  });

  it('keeps thresholds for a kind without a fitted model (transformers: not measured here)', () => {
    const s = readRetrievalSettings(new ConfigReader(fitted()), {
      modelId: 'Xenova/x',
      kind: 'transformers',
    });
    expect(s.evidenceModel).toBe(FITTED_EVIDENCE_MODELS.transformers);
    expect(FITTED_EVIDENCE_MODELS.transformers).toBeUndefined();
  });
});
