import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { Config, ConfigReader } from '@backstage/config';
import { JsonObject } from '@backstage/types';
import { readAskDocsConfig, resolveRetrievalSettings } from './settings';

const read = (askDocs: JsonObject) =>
  readAskDocsConfig(new ConfigReader({ askDocs }));

describe('visibility sync and retention settings', () => {
  it.each<[string, JsonObject, object, object]>([
    [
      'defaults: sync every 30 s, stale after 90 s, chunk versions kept 90 days',
      {},
      { enabled: true, frequency: { seconds: 30 }, maxStalenessSeconds: 90 },
      { chunkVersionsDays: 90, unusedModelDays: 7, removedEntityDays: 1 },
    ],
    [
      'reads configured values',
      {
        visibilitySync: {
          frequency: { seconds: 10 },
          maxStaleness: { minutes: 1 },
          enabled: false,
        },
        retention: {
          chunkVersionsDays: 30,
          unusedModelDays: 2,
          removedEntityDays: 0,
        },
      },
      { enabled: false, frequency: { seconds: 10 }, maxStalenessSeconds: 60 },
      { chunkVersionsDays: 30, unusedModelDays: 2, removedEntityDays: 0 },
    ],
  ])('%s', (_name, askDocs, visibilitySync, retention) => {
    const settings = read(askDocs);
    expect(settings.visibilitySync).toEqual(visibilitySync);
    expect(settings.retention).toEqual(retention);
  });

  it('refuses a staleness bound that one sync interval would exceed, and bad retention', () => {
    expect(() =>
      read({
        visibilitySync: {
          frequency: { minutes: 2 },
          maxStaleness: { seconds: 90 },
        },
      }),
    ).toThrow(/maxStaleness \(90 s\) must be longer than frequency \(120 s\)/);
    expect(() =>
      read({
        visibilitySync: {
          frequency: { seconds: 90 },
          maxStaleness: { seconds: 90 },
        },
      }),
    ).toThrow(/must be longer than frequency/);
    expect(() => read({ retention: { chunkVersionsDays: 0 } })).toThrow(
      /chunkVersionsDays/,
    );
    for (const unusedModelDays of [-1, 0, 0.5])
      expect(() => read({ retention: { unusedModelDays } })).toThrow(
        /unusedModelDays: expected a number from 1 to 3650/,
      );
    for (const removedEntityDays of [-1, 3651])
      expect(() => read({ retention: { removedEntityDays } })).toThrow(
        /removedEntityDays: expected a number from 0 to 3650/,
      );
  });
});

describe('readAskDocsConfig', () => {
  it('fills every default for an empty config (the values the plugin always had)', () => {
    const c = read({});
    expect(c).toEqual({
      languages: ['en', 'cs'],
      hunspell: {},
      embeddings: {
        provider: 'hashing',
        model: 'Xenova/multilingual-e5-small',
        localModelPath: path.resolve('models'),
        configured: false,
        queryPrefix: undefined,
        passagePrefix: undefined,
        dimension: 384,
        batchSize: undefined,
        maxTokens: undefined,
        dtype: undefined,
        allowFallback: true,
      },
      ingestion: {
        schedule: {
          frequency: { minutes: 30 },
          timeout: { hours: 3 },
          initialDelay: { seconds: 10 },
        },
        runOnStart: false,
        maxPageChars: undefined,
        maxChunkChars: undefined,
        concurrency: undefined,
      },
      retrieval: {
        topK: 8,
        candidates: undefined,
        rrfK: undefined,
        thresholds: {},
        fusionWeights: {},
        hnswBuildMemory: undefined,
        // Unset: resolved per embedding model (fitted for the fallback it was fitted on).
        evidenceDecision: undefined,
      },
      visibilitySync: {
        enabled: true,
        frequency: { seconds: 30 },
        maxStalenessSeconds: 90,
      },
      retention: {
        chunkVersionsDays: 90,
        unusedModelDays: 7,
        removedEntityDays: 1,
      },
      llm: undefined,
      modelQuota: undefined,
      answer: {
        options: {},
        retentionDays: 365,
        maxQuestionChars: 2000,
        maxQueryTerms: undefined,
      },
      permissions: { services: new Map() },
    });
    expect(
      resolveRetrievalSettings(c.retrieval, {
        modelId: 'm',
        kind: 'transformers',
      }),
    ).toEqual({
      k: 8,
      candidates: undefined,
      rrfK: undefined,
      thresholds: { minSimilarity: 0.8, minCoverage: 0.5 },
      weights: { vector: 1, keyword: 1 },
      // Score fusion is the default for the hashing fallback only (fusion.ts).
      fusion: 'rrf',
    });
  });

  it.each([
    [
      { retrieval: { topK: -1 } },
      /askDocs\.retrieval\.topK: expected a positive integer number, got -1/,
    ],
    [
      { retrieval: { candidates: 2.5 } },
      /askDocs\.retrieval\.candidates: expected a positive integer/,
    ],
    [
      { retrieval: { rrfK: -60 } },
      /askDocs\.retrieval\.rrfK: expected a non-negative integer/,
    ],
    [
      { retrieval: { hnswBuildMemory: "1GB'; DROP TABLE x; --" } },
      /hnswBuildMemory: expected a size such as 512MB/,
    ],
    [
      { embeddings: { dimension: 0 } },
      /askDocs\.embeddings\.dimension: expected a positive integer/,
    ],
    [{ embeddings: { batchSize: -8 } }, /askDocs\.embeddings\.batchSize/],
    [
      { embeddings: { provider: 'openai' } },
      /provider "openai"; expected "transformers" or "hashing"/,
    ],
    [
      { ingestion: { concurrency: 0 } },
      /askDocs\.ingestion\.concurrency: expected a positive integer/,
    ],
    [{ ingestion: { maxChunkChars: -1 } }, /askDocs\.ingestion\.maxChunkChars/],
    // A passage longer than the context budget would never be sent: every answer evidence only.
    [
      {
        answer: { maxContextChars: 1500 },
        llm: { model: 'm', apiKey: 'k', baseUrl: 'http://x/v1' },
      },
      new RegExp(
        String.raw`askDocs\.answer\.maxContextChars \(1500\) must be at least ` +
          String.raw`askDocs\.ingestion\.maxChunkChars \(1200\) \+ 500`,
      ),
    ],
    [
      {
        ingestion: { maxChunkChars: 20_000 },
        llm: { model: 'm', apiKey: 'k', baseUrl: 'http://x/v1' },
      },
      /maxContextChars \(12000\) must be at least askDocs\.ingestion\.maxChunkChars \(20000\)/,
    ],
    // Without a scheme the SDK would fail every call as an outage.
    [
      { llm: { baseUrl: 'localhost:8000/v1' } },
      /askDocs\.llm\.baseUrl: expected an http or https URL/,
    ],
    [{ llm: { baseUrl: 'ftp://models/v1' } }, /askDocs\.llm\.baseUrl/],
    // Without it the SDK would send the passages to OPENAI_BASE_URL or api.openai.com.
    [
      { llm: { model: 'm', apiKey: 'k' } },
      /askDocs\.llm\.baseUrl: required with a model/,
    ],
    [
      { llm: { model: 'm', apiKey: 'k', baseUrl: ' ' } },
      /askDocs\.llm\.baseUrl: required with a model/,
    ],
    // Node fires a longer timer at once: every call would time out.
    [
      { llm: { timeoutMs: 2 ** 31 } },
      /askDocs\.llm\.timeoutMs: expected at most 2147483647 ms/,
    ],
    [
      { llm: { temperature: 3 } },
      /askDocs\.llm\.temperature: expected a number from 0 to 2, got 3/,
    ],
    [
      { llm: { model: 'm', apiKey: 'k', maxTokens: -1 } },
      /askDocs\.llm\.maxTokens/,
    ],
    [
      { answer: { maxQuestionChars: -5 } },
      /askDocs\.answer\.maxQuestionChars: expected a positive integer/,
    ],
    [{ answer: { maxQueryTerms: 0 } }, /askDocs\.answer\.maxQueryTerms/],
    [
      { answer: { retention: { days: 0 } } },
      /askDocs\.answer\.retention\.days: expected a positive number/,
    ],
    [{ languages: [] }, /askDocs\.languages: expected a non-empty list/],
    [
      {
        permissions: {
          services: [{ subject: 'plugin:x', permissions: ['ask-docs.admin'] }],
        },
      },
      /"ask-docs.admin" for plugin:x is not one of ask-docs.audit.read/,
    ],
    [
      { visibilitySync: { frequency: { seconds: 0 } } },
      /must be longer than frequency \(0 s\)/,
    ],
    [
      {
        ingestion: {
          runOnStart: true,
          schedule: {
            frequency: { hours: 1 },
            timeout: { hours: 1 },
            initialDelay: { minutes: 5 },
          },
        },
      },
      /askDocs\.ingestion\.runOnStart: expected no schedule\.initialDelay alongside it/,
    ],
    [{ llm: { timeoutMs: 'soon' } }, /askDocs\.llm\.timeoutMs/],
    [
      { llm: { quotaPerUser: { calls: 0, per: { hours: 1 } } } },
      /askDocs\.llm\.quotaPerUser\.calls: expected a positive integer number, got 0/,
    ],
    [
      { llm: { quotaPerUser: { per: { hours: 1 } } } },
      /askDocs\.llm\.quotaPerUser\.calls: expected a positive integer/,
    ],
    [
      { llm: { quotaPerUser: { calls: 5 } } },
      /askDocs\.llm\.quotaPerUser\.per/,
    ],
    [
      { llm: { quotaPerUser: { calls: 5, per: { milliseconds: 10 } } } },
      /askDocs\.llm\.quotaPerUser\.per: expected at least one second/,
    ],
    [
      {
        llm: { quotaPerUser: { calls: 5, per: { days: 8 } } },
        answer: { retention: { days: 7 } },
      },
      /quotaPerUser\.per: expected at most askDocs\.answer\.retention\.days \(7 days\)/,
    ],
    [
      { retrieval: { titleWeight: -0.05 } },
      /askDocs\.retrieval\.titleWeight: expected a number from 0 to 1, got -0\.05/,
    ],
    [
      { retrieval: { titleWeight: 5 } },
      /askDocs\.retrieval\.titleWeight: expected a number from 0 to 1, got 5/,
    ],
    [{ retrieval: { titleWeight: 'high' } }, /askDocs\.retrieval\.titleWeight/],
    [
      { retrieval: { phraseWeight: 1.5 } },
      /askDocs\.retrieval\.phraseWeight: expected a number from 0 to 1, got 1\.5/,
    ],
    [
      { retrieval: { releaseNotesPenalty: -0.1 } },
      /askDocs\.retrieval\.releaseNotesPenalty: expected a number from 0 to 1, got -0\.1/,
    ],
    // Before: accepted here, then the embedder failed to load and the fallback took over.
    [
      { embeddings: { dtype: 'fp64' } },
      /askDocs\.embeddings\.dtype: expected one of/,
    ],
    [
      { embeddings: { dtype: 'constructor' } },
      /askDocs\.embeddings\.dtype: expected one of/,
    ],
    [
      { embeddings: { maxTokens: 1 } },
      /askDocs\.embeddings\.maxTokens: expected an integer of at least 2, got 1/,
    ],
    // Before: accepted, and failed after migrations when the analysers were built.
    [
      { languages: ['en', 'de'] },
      /askDocs\.languages: expected codes of the built-in analysers: en, cs/,
    ],
    [{ answer: { maxEvidence: 0.1 } }, /askDocs\.answer\.maxEvidence/],
    [{ llm: { timeoutMs: 0.5 } }, /askDocs\.llm\.timeoutMs/],
  ] as Array<[JsonObject, RegExp]>)(
    'refuses %j naming the key and the expectation',
    (askDocs, error) => {
      expect(() => read(askDocs)).toThrow(error);
    },
  );

  it('reads the model quota per user with its window in seconds, in either duration form', () => {
    const quota = (per: unknown) =>
      readAskDocsConfig(
        new ConfigReader({
          askDocs: { llm: { quotaPerUser: { calls: 3, per } } },
        } as any),
      ).modelQuota;
    expect(quota({ hours: 24 })).toEqual({ calls: 3, windowSeconds: 86_400 });
    expect(quota('30 minutes')).toEqual({ calls: 3, windowSeconds: 1_800 });
    // Kept when no model is configured: it applies as soon as one is.
    expect(quota('PT1H')).toEqual({ calls: 3, windowSeconds: 3_600 });
  });

  it('holds the context budget to the passage size only when a model is configured', () => {
    // Without a model nothing is sent: a raised passage size is no start-up error.
    expect(
      read({ ingestion: { maxChunkChars: 20_000 } }).ingestion,
    ).toMatchObject({ maxChunkChars: 20_000 });
    expect(() =>
      read({
        ingestion: { maxChunkChars: 20_000 },
        llm: { model: 'm', apiKey: 'k', baseUrl: 'http://x/v1' },
      }),
    ).toThrow(/maxContextChars \(12000\) must be at least/);
    expect(
      read({
        ingestion: { maxChunkChars: 20_000 },
        answer: { maxContextChars: 20_500 },
        llm: { model: 'm', apiKey: 'k', baseUrl: 'http://x/v1' },
      }).answer.options.maxContextChars,
    ).toBe(20_500);
  });

  it('reads no reranker unless one is configured', () => {
    expect(read({}).retrieval.reranker).toBeUndefined();
    expect(
      read({ embeddings: { localModelPath: '/models' } }).retrieval.reranker,
    ).toBeUndefined();
  });

  it(`defaults the reranker's model directory to the embeddings' and fails start by \
default`, () => {
    expect(
      read({
        embeddings: { localModelPath: '/models' },
        retrieval: { reranker: { model: 'Xenova/ms-marco-MiniLM-L-6-v2' } },
      }).retrieval.reranker,
    ).toEqual({
      model: 'Xenova/ms-marco-MiniLM-L-6-v2',
      localModelPath: path.resolve('/models'),
      candidates: 20,
      maxTokens: undefined,
      batchSize: undefined,
      dtype: undefined,
      allowFallback: false,
    });
    // Without an embeddings path too: the same default directory as the embedder's.
    expect(
      read({ retrieval: { reranker: { model: 'r' } } }).retrieval.reranker
        ?.localModelPath,
    ).toBe(path.resolve('models'));
    expect(
      read({
        retrieval: {
          reranker: {
            model: ' r ',
            localModelPath: 'rerankers',
            candidates: 1,
            maxTokens: 2,
            batchSize: 1,
            dtype: 'q8',
            allowFallback: true,
          },
        },
      }).retrieval.reranker,
    ).toEqual({
      model: 'r',
      localModelPath: path.resolve('rerankers'),
      candidates: 1,
      maxTokens: 2,
      batchSize: 1,
      dtype: 'q8',
      allowFallback: true,
    });
  });

  it.each([
    [{}, /askDocs\.retrieval\.reranker\.model: expected the reranker model id/],
    [{ model: '  ' }, /askDocs\.retrieval\.reranker\.model: expected/],
    [
      { model: 'r', candidates: 0 },
      /askDocs\.retrieval\.reranker\.candidates: expected a positive integer/,
    ],
    [
      { model: 'r', candidates: 2.5 },
      /askDocs\.retrieval\.reranker\.candidates/,
    ],
    [
      { model: 'r', maxTokens: 1 },
      /askDocs\.retrieval\.reranker\.maxTokens: expected an integer of at least 2, got 1/,
    ],
    [{ model: 'r', batchSize: -1 }, /askDocs\.retrieval\.reranker\.batchSize/],
    [
      { model: 'r', dtype: 'float7' },
      /askDocs\.retrieval\.reranker\.dtype: expected one of fp32, fp16, q8/,
    ],
    [
      { model: 'r', allowFallback: 'maybe' },
      /askDocs\.retrieval\.reranker\.allowFallback/,
    ],
  ] as Array<[JsonObject, RegExp]>)(
    'refuses the reranker %j naming the key',
    (reranker, error) => {
      expect(() => read({ retrieval: { reranker } })).toThrow(error);
    },
  );

  it('refuses a reranker that is not an object', () => {
    expect(() => read({ retrieval: { reranker: 'ms-marco' } })).toThrow(
      /askDocs\.retrieval\.reranker: expected an object such as \{ model: <model id> \}/,
    );
  });

  it('accepts the edges of each range', () => {
    const c = read({
      retrieval: { rrfK: 0, hnswBuildMemory: '64kB' },
      llm: {
        model: 'm',
        apiKey: 'k',
        baseUrl: 'http://x/v1',
        temperature: 2,
        maxRetries: 0,
      },
      answer: { minClaimOverlap: 0 },
    });
    expect(c.retrieval).toMatchObject({ rrfK: 0, hnswBuildMemory: '64kB' });
    expect(c.llm).toMatchObject({ temperature: 2, maxRetries: 0 });
    expect(c.answer.options).toEqual({ minClaimOverlap: 0 });
  });

  it(`passes configured title, phrase and release-notes weights to retrieval, and leaves the \
defaults alone`, () => {
    const hashing = { modelId: 'h', kind: 'hashing-fallback' as const };
    for (const weight of [0, 0.2, 1]) {
      const c = read({
        retrieval: {
          titleWeight: weight,
          phraseWeight: weight,
          releaseNotesPenalty: weight,
        },
      });
      expect(resolveRetrievalSettings(c.retrieval, hashing)).toMatchObject({
        titleWeight: weight,
        phraseWeight: weight,
        releaseNotesPenalty: weight,
      });
    }
    const defaults = resolveRetrievalSettings(read({}).retrieval, hashing);
    expect(defaults).not.toHaveProperty('titleWeight');
    expect(defaults).not.toHaveProperty('phraseWeight');
    expect(defaults).not.toHaveProperty('releaseNotesPenalty');
  });

  it('reads a bilingual dictionary between two configured languages, and none by default', () => {
    const files = { path: '/usr/share/dictd/x', from: 'en', to: 'cs' };
    expect(read({ bilingualDictionary: files }).bilingualDictionary).toEqual(
      files,
    );
    expect(read({})).not.toHaveProperty('bilingualDictionary');
    expect(() =>
      read({ languages: ['en'], bilingualDictionary: files }),
    ).toThrow(
      /askDocs\.bilingualDictionary: expected from and to: two different languages among en,/,
    );
    expect(() =>
      read({ bilingualDictionary: { ...files, to: 'en-GB' } }),
    ).toThrow(/two different languages among en, cs/);
    expect(() =>
      read({ bilingualDictionary: { path: '/x', from: 'en' } }),
    ).toThrow(/bilingualDictionary\.to/);
  });

  it('runOnStart runs the first ingestion right after start', () => {
    expect(
      read({ ingestion: { runOnStart: true } }).ingestion.schedule,
    ).toEqual({
      frequency: { minutes: 30 },
      timeout: { hours: 3 },
      initialDelay: { seconds: 0 },
    });
    expect(read({ ingestion: { runOnStart: true } }).ingestion.runOnStart).toBe(
      true,
    );
    expect(
      read({ ingestion: { runOnStart: false } }).ingestion.schedule
        .initialDelay,
    ).toEqual({
      seconds: 10,
    });
  });
});

// ---- Every key in config.d.ts is read, and every key read is declared there. ----

const CONFIG_D_TS = path.resolve(__dirname, '../config.d.ts');

/** Paths under `askDocs` in config.d.ts: `a.b`, `*` for an index signature, `[]` for arrays. */
function declaredKeys(source: string) {
  const file = ts.createSourceFile(
    'config.d.ts',
    source,
    ts.ScriptTarget.Latest,
    true,
  );
  const nodes = new Set<string>();
  const leaves = new Set<string>();
  const literalOf = (
    t: ts.TypeNode | undefined,
  ): ts.TypeLiteralNode | undefined => {
    if (t && ts.isTypeLiteralNode(t)) return t;
    return undefined;
  };
  const arrayElement = (t: ts.TypeNode | undefined) => {
    if (t && ts.isArrayTypeNode(t)) return literalOf(t.elementType);
    if (t && ts.isTypeReferenceNode(t) && t.typeName.getText() === 'Array') {
      return literalOf(t.typeArguments?.[0]);
    }
    return undefined;
  };
  const walk = (literal: ts.TypeLiteralNode, prefix: string) => {
    for (const member of literal.members) {
      let name: string;
      if (ts.isPropertySignature(member))
        name = member.name.getText().replace(/['"]/g, '');
      else if (ts.isIndexSignatureDeclaration(member)) name = '*';
      else
        throw new Error(
          `unexpected member in config.d.ts: ${member.getText()}`,
        );
      const at = prefix ? `${prefix}.${name}` : name;
      nodes.add(at);
      const type = (
        member as ts.PropertySignature | ts.IndexSignatureDeclaration
      ).type;
      const inner = literalOf(type);
      const element = arrayElement(type);
      if (inner) walk(inner, at);
      else if (element) walk(element, `${at}[]`);
      else leaves.add(at);
    }
  };
  ts.forEachChild(file, node => {
    if (!ts.isInterfaceDeclaration(node) || node.name.text !== 'Config') return;
    for (const member of node.members) {
      const type = ts.isPropertySignature(member)
        ? literalOf(member.type)
        : undefined;
      if (member.name?.getText() === 'askDocs' && type) walk(type, '');
    }
  });
  return { nodes, leaves };
}

const SCALAR_GETTERS = [
  'get',
  'getOptional',
  'has',
  'getString',
  'getOptionalString',
  'getNumber',
  'getOptionalNumber',
  'getBoolean',
  'getOptionalBoolean',
  'getStringArray',
  'getOptionalStringArray',
];

/**
 * Wraps a Config and records the keys read below `askDocs`. A sub-config handed out whole
 * (getConfig, e.g. to Backstage's duration and schedule readers) covers everything under it;
 * raw objects (per-model maps) are proxied so the fields read from them are recorded too.
 */
function recordingConfig(
  config: Config,
  read: Set<string>,
  covered: Set<string>,
  prefix = '',
): Config {
  const note = (k: string) => {
    const full = prefix ? `${prefix}.${k}` : k;
    return full.startsWith('askDocs.') ? full.slice('askDocs.'.length) : full;
  };
  const rawProxy = (value: unknown, at: string): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    return new Proxy(value as object, {
      get(target, prop, receiver) {
        const result = Reflect.get(target, prop, receiver);
        // zod probes `then` to detect promises; that is not a config key.
        if (typeof prop !== 'string' || prop === 'then') return result;
        const child = Array.isArray(target) ? `${at}[]` : `${at}.${prop}`;
        if (!(Array.isArray(target) && !/^\d+$/.test(prop))) read.add(child);
        return rawProxy(result, child);
      },
    });
  };
  return new Proxy(config, {
    get(target, name, receiver) {
      const method = Reflect.get(target, name, receiver);
      if (typeof name !== 'string' || typeof method !== 'function')
        return method;
      return (k: string, ...rest: unknown[]) => {
        const result = method.call(target, k, ...rest);
        if (name === 'keys') return result;
        const at = note(k);
        read.add(at);
        if (name === 'getConfig' || name === 'getOptionalConfig')
          covered.add(at);
        if (name === 'getConfigArray' || name === 'getOptionalConfigArray') {
          return (result as Config[] | undefined)?.map(c =>
            recordingConfig(
              c,
              read,
              covered,
              `${prefix ? `${prefix}.` : ''}${k}[]`,
            ),
          );
        }
        if (name === 'get' || name === 'getOptional')
          return rawProxy(result, at);
        if (
          !SCALAR_GETTERS.includes(name) &&
          !name.startsWith('getConfig') &&
          !name.startsWith('getOptionalConfig')
        ) {
          throw new Error(`recordingConfig: unexpected method ${name}`);
        }
        return result;
      };
    },
  });
}

/** One value for every key in config.d.ts (index keys are `*`), valid together. */
const EVERY_KEY: JsonObject = {
  languages: ['en', 'cs'],
  hunspell: { cs: { affPath: '/x/cs.aff', dicPath: '/x/cs.dic' } },
  bilingualDictionary: { path: '/x/eng-ces', from: 'en', to: 'cs' },
  embeddings: {
    provider: 'hashing',
    model: 'm',
    localModelPath: '/models',
    queryPrefix: 'q: ',
    passagePrefix: '',
    dimension: 64,
    batchSize: 4,
    maxTokens: 128,
    dtype: 'q8',
    allowFallback: false,
  },
  ingestion: {
    schedule: { frequency: { minutes: 5, hours: 1 }, timeout: { minutes: 10 } },
    runOnStart: true,
    maxPageChars: 1000,
    maxChunkChars: 500,
    concurrency: 2,
  },
  retrieval: {
    topK: 4,
    candidates: 20,
    rrfK: 60,
    hnswBuildMemory: '256MB',
    thresholds: { '*': { minSimilarity: 0.5, minCoverage: 0.5 } },
    fusionWeights: { '*': { vector: 1, keyword: 2 } },
    titleWeight: 0.1,
    phraseWeight: 0.1,
    releaseNotesPenalty: 0.2,
    reranker: {
      model: 'r',
      localModelPath: '/rerankers',
      candidates: 10,
      maxTokens: 256,
      batchSize: 4,
      dtype: 'q8',
      allowFallback: true,
    },
  },
  visibilitySync: {
    enabled: true,
    frequency: { seconds: 10, minutes: 1 },
    maxStaleness: { seconds: 30, minutes: 2 },
  },
  retention: { chunkVersionsDays: 7, unusedModelDays: 3, removedEntityDays: 2 },
  llm: {
    baseUrl: 'http://x/v1',
    apiKey: 'k',
    model: 'm',
    timeoutMs: 1,
    maxRetries: 0,
    temperature: 0,
    maxTokens: 9,
    quotaPerUser: { calls: 40, per: { hours: 24 } },
  },
  answer: {
    maxContextChars: 1000,
    maxBlocks: 1,
    maxEvidence: 1,
    verifyClaims: true,
    minClaimOverlap: 0.5,
    retention: { days: 1 },
    maxQuestionChars: 10,
    maxQueryTerms: 5,
  },
  permissions: {
    services: [{ subject: 'plugin:x', permissions: ['ask-docs.audit.read'] }],
  },
};

/** Keys read by `reader` over an empty and a complete config, and what they cover. */
function readerKeys(reader: (config: Config) => unknown) {
  const read = new Set<string>();
  const covered = new Set<string>();
  for (const askDocs of [{}, EVERY_KEY]) {
    reader(recordingConfig(new ConfigReader({ askDocs }), read, covered));
  }
  return { read, covered };
}

function compareKeys(dts: string, reader: (config: Config) => unknown) {
  const declared = declaredKeys(dts);
  const { read, covered } = readerKeys(reader);
  const isCovered = (leaf: string) =>
    read.has(leaf) ||
    [...covered].some(c => leaf === c || leaf.startsWith(`${c}.`));
  return {
    declared,
    undeclaredReads: [...read].filter(k => !declared.nodes.has(k)).sort(),
    unreadDeclarations: [...declared.leaves].filter(k => !isCovered(k)).sort(),
  };
}

describe('config.d.ts and readAskDocsConfig agree', () => {
  const dts = fs.readFileSync(CONFIG_D_TS, 'utf8');

  it('extracts the schema (sanity check of the extraction)', () => {
    const { leaves } = declaredKeys(dts);
    expect(leaves).toContain('embeddings.provider');
    expect(leaves).toContain('retrieval.thresholds.*.minSimilarity');
    expect(leaves).toContain('permissions.services[].permissions');
    expect(leaves).toContain('ingestion.schedule');
    expect(leaves.size).toBeGreaterThan(50);
  });

  it('reads every declared key and no undeclared one', () => {
    const { undeclaredReads, unreadDeclarations } = compareKeys(
      dts,
      readAskDocsConfig,
    );
    expect(undeclaredReads).toEqual([]);
    expect(unreadDeclarations).toEqual([]);
  });

  it('fails when config.d.ts gains a key the reader does not read', () => {
    const gained = dts.replace('llm?: {', 'llm?: {\n      topP?: number;');
    expect(gained).not.toBe(dts);
    expect(compareKeys(gained, readAskDocsConfig).unreadDeclarations).toEqual([
      'llm.topP',
    ]);
  });

  it('fails when the reader gains a key config.d.ts does not declare', () => {
    const reader = (config: Config) => {
      config.getOptionalNumber('askDocs.retrieval.maxDistance');
      return readAskDocsConfig(config);
    };
    expect(compareKeys(dts, reader).undeclaredReads).toEqual([
      'retrieval.maxDistance',
    ]);
    const mapReader = (config: Config) => {
      const weights = config.getOptional(
        'askDocs.retrieval.fusionWeights',
      ) as any;
      return [weights?.['*']?.vector, weights?.['*']?.title];
    };
    expect(compareKeys(dts, mapReader).undeclaredReads).toEqual([
      'retrieval.fusionWeights.*.title',
    ]);
  });
});
