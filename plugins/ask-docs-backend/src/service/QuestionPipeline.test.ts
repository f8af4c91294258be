import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { metricsServiceMock } from '@backstage/backend-test-utils/alpha';
import { InputError } from '@backstage/errors';
import { ChatMessage, ChatModel } from '../answer';
import { analyzeText, Analyzers, createLanguageAnalyzers } from '../language';
import { resolveVisibility, Visibility } from '../permissions';
import {
  cond,
  fakePermissions,
  FakeDecision,
} from '../testUtils/fakePermissions';
import {
  DEFAULT_RRF_K,
  DEFAULT_SCORE_FUSION_WEIGHTS,
} from '../retrieval/fusion';
import { DEFAULT_RELEASE_NOTES_PENALTY } from '../retrieval/releaseNotes';
import {
  DEFAULT_PHRASE_WEIGHT,
  DEFAULT_TITLE_WEIGHT,
} from '../retrieval/retriever';
import { SeedChunk, seedIndex } from '../retrieval/testUtils/seed';
import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import {
  QuestionPipeline,
  QuestionPipelineOptions,
  RetrievalSettings,
} from './QuestionPipeline';
import { KnowledgeIndex } from '../database/IndexReader';
import type { Reranker } from '../embedding/reranker';
import { DatabaseAskDocsStore } from '../database/DatabaseAskDocsStore';
import {
  AskService,
  RESTARTING_MESSAGE,
  STALE_VISIBILITY_MESSAGE,
} from './AskService';
import { clientErrorStatus } from './errors';
import { AskDocsMetrics } from '../metrics';

const MODEL = 'pipeline-test/v1';
const PAY = 'component:default/payments';
const SECRET = 'component:default/secret';
const NO_FILTER = { minSimilarity: -1, minCoverage: 0 };
const PRODUCT: RetrievalSettings = {
  k: 8,
  thresholds: { minSimilarity: 0.9, minCoverage: 0.5 },
};

/**
 * Query vectors by topic, so vector and keyword rankings disagree on purpose: a question about
 * the ledger points near the refunds chunk's vector (cosine 0.8, under the product's 0.9), far
 * from the ledger chunk's; any other question points away from every chunk.
 */
const LEDGER_DIRECTION = [0, 1, 0, 0];
const OTHER_DIRECTION = [0, 0, 0, 1];
const REFUNDS_VECTOR = [0, 0.8, 0.6, 0];
const LEDGER_VECTOR = [1, 0, 0, 0];
const embedded: string[] = [];
const embedder = {
  modelId: MODEL,
  async embedQuery(text: string) {
    embedded.push(text);
    return /ledger/i.test(text) ? LEDGER_DIRECTION : OTHER_DIRECTION;
  },
};

let db: TestDatabase;
let analyzers: Analyzers;
let payOnly: Visibility;
let everyone: Visibility;

async function visibilityFor(chunk: FakeDecision) {
  return resolveVisibility({
    permissions: fakePermissions({ chunk }),
    credentials: mockCredentials.user('user:default/someone'),
  });
}

/** Postings as the Ingester writes them, so the question's analysis matches them. */
function chunk(chunkId: string, text: string, vector: number[]): SeedChunk {
  const terms: Partial<Record<'l' | 's' | 'w', string[]>> = {
    l: [],
    s: [],
    w: [],
  };
  for (const t of analyzeText(text, 'en', analyzers).terms) {
    terms[t.kind]!.push(...Array(t.tf).fill(t.term));
  }
  return {
    chunkId,
    text,
    sectionPath: text.split(' ')[0],
    terms,
    embeddings: { [MODEL]: vector },
  };
}

function pipeline(options: Partial<QuestionPipelineOptions> = {}) {
  return new QuestionPipeline({
    index: new KnowledgeIndex(db.knex),
    embedder,
    analyzers,
    model: undefined,
    retrieval: PRODUCT,
    answer: {},
    ...options,
  });
}

/** A model that records the prompts it was sent. */
function recordingModel(): ChatModel & { seen: string[] } {
  const seen: string[] = [];
  return {
    model: 'recording',
    seen,
    async complete(messages: ChatMessage[]) {
      seen.push(messages.map(m => m.content).join('\n'));
      return 'The ledger keeps the records.';
    },
  };
}

beforeAll(async () => {
  db = await startTestDatabase();
  analyzers = await createLanguageAnalyzers({ languages: ['en'] });
  await seedIndex(db.knex, {
    entities: [
      { entityRef: PAY, owners: ['group:default/team-pay'] },
      { entityRef: SECRET, owners: ['group:default/team-sec'] },
    ],
    documents: [
      {
        entityRef: PAY,
        title: 'Payments',
        chunks: [
          chunk(
            'refunds',
            'Refunds are approved by the payments team',
            REFUNDS_VECTOR,
          ),
          chunk(
            'ledger',
            'The ledger keeps double entry bookkeeping records',
            LEDGER_VECTOR,
          ),
        ],
      },
      {
        entityRef: SECRET,
        title: 'Secret runbook',
        chunks: [
          // The ledger chunk's words and the question's vector: only visibility keeps it out.
          chunk(
            'secret',
            'The ledger keeps zanzibar bookkeeping records',
            LEDGER_DIRECTION,
          ),
        ],
      },
    ],
  });
  payOnly = await visibilityFor({
    conditions: cond('ask-docs-chunk', 'IS_ENTITY_OWNER', {
      claims: ['group:default/team-pay'],
    }),
  });
  everyone = await visibilityFor('ALLOW');
}, 120_000);

afterAll(async () => {
  await db?.stop();
});

beforeEach(() => {
  embedded.length = 0;
});

const ids = (r: { chunks: Array<{ chunkId: string }> }) =>
  r.chunks.map(c => c.chunkId);

describe('QuestionPipeline', () => {
  it('analyses with the product bound on question terms and hands out frozen questions', () => {
    const p = pipeline({ maxQueryTerms: 3 });
    const q = p.analyse('ledger bookkeeping records');
    expect(q.question).toBe('ledger bookkeeping records');
    expect(Object.isFrozen(q)).toBe(true);
    expect(() => p.analyse('ledger bookkeeping records refunds')).toThrow(
      InputError,
    );
  });

  it('runs the product path: hybrid retrieval, evidence filter, answer step', async () => {
    const p = pipeline();
    const { retrieval, chunks, result } = await p.run(
      p.analyse('ledger bookkeeping'),
      payOnly,
    );
    expect(ids(retrieval)).toEqual(['ledger']);
    expect(chunks.map(c => [c.chunkId, c.score])).toEqual([
      ['ledger', retrieval.chunks[0].rrf],
    ]);
    expect(result.status).toBe('evidence_only');
    expect(result.evidence.map(e => e.chunkId)).toEqual(['ledger']);
    expect(embedded).toEqual(['ledger bookkeeping']);
  });

  it('never retrieves or sends a chunk outside the visibility it is given', async () => {
    const model = recordingModel();
    const p = pipeline({
      model,
      retrieval: { ...PRODUCT, thresholds: NO_FILTER },
    });
    const question = p.analyse('ledger zanzibar bookkeeping');
    const { retrieval, result } = await p.run(question, payOnly);
    expect(ids(retrieval)).not.toContain('secret');
    expect(result.sent).not.toContain('secret');
    expect(model.seen.join('\n')).not.toMatch(/keeps zanzibar/);
    expect(model.seen.join('\n')).toMatch(/keeps double entry/);
    // The control: the same question with wider visibility does reach the chunk.
    const wide = await p.retrieve(await p.embed(question), everyone);
    expect(ids(wide)).toContain('secret');
  });

  it("reads a follow-up's evidence from its own words, earlier ones steer vectors", async () => {
    const p = pipeline();
    const followUp = p.analyse('and what about the ledger bookkeeping');
    const combined = p.analyse(
      'How do I move the ledger to Kafka?\nand what about the ledger bookkeeping',
    );
    const searchAs = Object.freeze({
      ...followUp,
      vectorText: combined.vectorText,
    });
    const { retrieval } = await p.run(followUp, payOnly, { searchAs });
    expect(embedded.at(-1)).toBe(combined.vectorText);
    // No passage names Kafka, which only the earlier question does: not missing from this one.
    expect(retrieval.evidence?.features.nameMissing).toBe(0);
    // The control: asked as one question, the name is missing.
    const whole = await p.retrieve(await p.embed(combined), payOnly);
    expect(whole.evidence?.features.nameMissing).toBe(1);
  });

  it('offers single-retriever modes and overrides, leaving the product settings', async () => {
    const p = pipeline();
    const q = await p.embed(p.analyse('ledger'));
    const wide = { settings: { k: 10, thresholds: NO_FILTER } };
    // The vector list puts the refunds chunk first (its vector); the keyword list has the ledger.
    const vector = await p.retrieve(q, payOnly, { mode: 'vector', ...wide });
    const keyword = await p.retrieve(q, payOnly, { mode: 'keyword', ...wide });
    const hybrid = await p.retrieve(q, payOnly, wide);
    expect(ids(vector)).toEqual(['refunds', 'ledger']);
    expect(ids(keyword)).toEqual(['ledger']);
    expect(ids(hybrid).sort()).toEqual(['ledger', 'refunds']);
    // The product path still filters: the refunds chunk shares no word and is not similar enough.
    expect(p.settings).toMatchObject(PRODUCT);
    expect(ids(await p.retrieve(q, payOnly))).toEqual(['ledger']);
  });

  it('records every default the retriever applies, and what was configured instead', () => {
    // Nothing but k and thresholds configured: RRF with its boosts, each at the default.
    expect(pipeline().settings).toEqual({
      k: 8,
      thresholds: PRODUCT.thresholds,
      candidates: 40,
      fusion: 'rrf',
      rrfK: DEFAULT_RRF_K,
      weights: { vector: 1, keyword: 1 },
      titleWeight: DEFAULT_TITLE_WEIGHT,
      phraseWeight: DEFAULT_PHRASE_WEIGHT,
      releaseNotesPenalty: DEFAULT_RELEASE_NOTES_PENALTY.rrf,
    });
    // Score fusion: its own weights, no boosts' weights (they do not apply), its penalty.
    const scores = pipeline({
      retrieval: { ...PRODUCT, k: 12, fusion: 'scores', titleWeight: 0.3 },
    }).settings;
    expect(scores).toMatchObject({
      k: 12,
      candidates: 48,
      fusion: 'scores',
      scoreWeights: DEFAULT_SCORE_FUSION_WEIGHTS,
      releaseNotesPenalty: DEFAULT_RELEASE_NOTES_PENALTY.scores,
    });
    expect(scores).not.toHaveProperty('titleWeight');
    expect(scores).not.toHaveProperty('phraseWeight');
    // A recorded table is a copy: nothing that reads the record can change the ranking.
    expect(scores.fusion === 'scores' && scores.scoreWeights).not.toBe(
      DEFAULT_SCORE_FUSION_WEIGHTS,
    );
    // What is configured wins over each default.
    const configured = {
      ...PRODUCT,
      candidates: 20,
      rrfK: 10,
      weights: { vector: 0.1, keyword: 1 },
      titleWeight: 0,
      phraseWeight: 0.3,
      releaseNotesPenalty: 0.5,
    };
    expect(pipeline({ retrieval: configured }).settings).toEqual({
      ...configured,
      fusion: 'rrf',
    });
  });

  it('re-embeds the question with typo corrections from the visible vocabulary only', async () => {
    const p = pipeline();
    const typo = await p.retrieve(
      await p.embed(p.analyse('ledgr bookkeeping')),
      payOnly,
    );
    expect(typo.corrections).toEqual([{ from: 'ledgr', to: 'ledger' }]);
    expect(embedded).toEqual(['ledgr bookkeeping', 'ledger bookkeeping']);

    embedded.length = 0;
    const hidden = await p.retrieve(
      await p.embed(p.analyse('zanzibr')),
      payOnly,
    );
    expect(hidden.corrections).toEqual([]);
    expect(hidden.chunks).toEqual([]);
    expect(embedded).toEqual(['zanzibr']);
  });

  it('centres snippets on the question as searched: no greeting, typos fixed', async () => {
    const p = pipeline();
    const greeted = await p.run(
      p.analyse('Hi team, quick question: ledgr bookkeeping? Thanks!'),
      payOnly,
    );
    expect(greeted.retrieval.searchedFor).toBe('ledger bookkeeping?');
    // An elliptic follow-up searches with the thread, but its snippets centre on its words.
    const followUp = await p.run(p.analyse('and the refunds?'), payOnly, {
      searchAs: p.analyse('ledger bookkeeping\nand the refunds?'),
    });
    expect(followUp.retrieval.searchedFor).toBe('and the refunds?');
  });

  it('stops between steps when the signal aborts', async () => {
    const p = pipeline();
    const controller = new AbortController();
    controller.abort();
    await expect(
      p.run(p.analyse('ledger'), payOnly, { signal: controller.signal }),
    ).rejects.toThrow();
    expect(embedded).toEqual([]);
  });
});

describe('QuestionPipeline with a reranker', () => {
  const WIDE: RetrievalSettings = { ...PRODUCT, thresholds: NO_FILTER };

  /** A reranker scoring each passage by a function of the chunk it shows. */
  function stubReranker(
    candidates: number,
    scoreOf: (chunkId: string) => number,
  ): Reranker & { calls: Array<{ question: string; chunkIds: string[] }> } {
    const texts: Record<string, string> = {
      refunds: 'Refunds are approved',
      ledger: 'The ledger keeps double',
      secret: 'The ledger keeps zanzibar',
    };
    const calls: Array<{ question: string; chunkIds: string[] }> = [];
    return {
      modelId: 'test/stub-reranker',
      candidates,
      calls,
      async score(question, passages) {
        const chunkIds = passages.map(
          p => Object.keys(texts).find(id => p.includes(texts[id]))!,
        );
        calls.push({ question, chunkIds });
        return chunkIds.map(scoreOf);
      },
    };
  }

  /** Scores that reverse the given order. */
  const reversing = (order: string[]) => (id: string) => order.indexOf(id);

  async function fusedOrder(question: string, settings = WIDE) {
    const p = pipeline({ retrieval: settings });
    return p.retrieve(await p.embed(p.analyse(question)), everyone);
  }

  it(`reorders the retrieved chunks, renumbers rank and records the model; fusion and the \
evidence decision are untouched`, async () => {
    const base = await fusedOrder('ledger zanzibar bookkeeping');
    expect(ids(base)).toHaveLength(3);
    const reranker = stubReranker(20, reversing(ids(base)));
    const p = pipeline({ retrieval: WIDE, reranker });
    const r = await p.retrieve(
      await p.embed(p.analyse('ledger zanzibar bookkeeping')),
      everyone,
    );
    expect(ids(r)).toEqual([...ids(base)].reverse());
    expect(r.chunks.map(c => c.rank)).toEqual([1, 2, 3]);
    // Each chunk keeps its own fused scores.
    for (const c of r.chunks)
      expect(c.rrf).toBe(base.chunks.find(b => b.chunkId === c.chunkId)!.rrf);
    expect(r.reranker).toEqual({
      modelId: 'test/stub-reranker',
      status: 'reranked',
      scores: ids(base).map((chunkId, i) => ({
        chunkId,
        fusedRank: i + 1,
        score: i,
      })),
    });
    expect(r.candidatesConsidered).toBe(base.candidatesConsidered);
    expect(r.filteredOut).toBe(base.filteredOut);
    expect(r.evidence).toEqual(base.evidence);
    expect(r.corrections).toEqual(base.corrections);
    expect(p.settings).toMatchObject({ ...WIDE, k: 8 });
  });

  it('reorders only the top N; the rest keep the fused order below them', async () => {
    const base = await fusedOrder('ledger zanzibar bookkeeping');
    const reranker = stubReranker(2, reversing(ids(base)));
    const p = pipeline({ retrieval: WIDE, reranker });
    const r = await p.retrieve(
      await p.embed(p.analyse('ledger zanzibar bookkeeping')),
      everyone,
    );
    const [first, second, third] = ids(base);
    expect(ids(r)).toEqual([second, first, third]);
    expect(reranker.calls.map(c => c.chunkIds)).toEqual([[first, second]]);
  });

  it("chooses among its N candidates but returns the product's k", async () => {
    const base = await fusedOrder('ledger zanzibar bookkeeping');
    const reranker = stubReranker(3, reversing(ids(base)));
    const p = pipeline({ retrieval: { ...WIDE, k: 1 }, reranker });
    const r = await p.retrieve(
      await p.embed(p.analyse('ledger zanzibar bookkeeping')),
      everyone,
    );
    expect(ids(r)).toEqual([ids(base)[2]]);
    expect(r.chunks[0].rank).toBe(1);
    // The candidate pool is the one k = 1 has without a reranker.
    const alone = await fusedOrder('ledger zanzibar bookkeeping', {
      ...WIDE,
      k: 1,
    });
    expect(r.candidatesConsidered).toBe(alone.candidatesConsidered);
    expect(ids(alone)).toEqual([ids(base)[0]]);

    // A configured pool smaller than N stays the pool: N never widens what fusion sees.
    const narrow = { ...WIDE, k: 1, candidates: 1 };
    const small = pipeline({ retrieval: narrow, reranker });
    const s = await small.retrieve(
      await small.embed(small.analyse('ledger zanzibar bookkeeping')),
      everyone,
    );
    const smallAlone = await fusedOrder('ledger zanzibar bookkeeping', narrow);
    expect(s.candidatesConsidered).toBe(smallAlone.candidatesConsidered);
    expect(s.candidatesConsidered).toBeLessThan(base.candidatesConsidered);
    expect(ids(s)).toEqual(ids(smallAlone));
  });

  it('never adds a chunk the filter dropped and never turns a refusal into an answer', async () => {
    // Scores the filtered-out refunds chunk above all.
    const reranker = stubReranker(20, id => (id === 'refunds' ? 100 : 0));
    // A model that records its prompts: what was sent is seen, not inferred.
    const prompts: string[] = [];
    const model = {
      model: 'recording',
      complete: async (messages: Array<{ content: string }>) => {
        prompts.push(messages.map(m => m.content).join('\n'));
        return 'No answer here.';
      },
    };
    const p = pipeline({ reranker, model });
    const filtered = await p.run(p.analyse('ledger bookkeeping'), payOnly);
    expect(ids(filtered.retrieval)).toEqual(['ledger']);
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatch(/ledger/i);
    expect(prompts[0]).not.toMatch(/refund/i);
    expect(filtered.retrieval.reranker?.status).toBe('skipped');

    const plain = pipeline();
    for (const question of ['weather sunny today', 'zanzibar']) {
      const without = await plain.run(plain.analyse(question), payOnly);
      const withReranker = await p.run(p.analyse(question), payOnly);
      expect(without.retrieval.chunks).toEqual([]);
      expect(withReranker.retrieval.chunks).toEqual([]);
      expect(withReranker.result.status).toBe(without.result.status);
      expect(withReranker.retrieval.reranker).toBeUndefined();
    }
    expect(reranker.calls).toEqual([]);
  });

  it('keeps the fused order and answers when the reranker fails, with a warning', async () => {
    const base = await fusedOrder('ledger zanzibar bookkeeping');
    const warn = jest.fn();
    const p = pipeline({
      retrieval: WIDE,
      logger: { warn },
      reranker: {
        modelId: 'test/broken',
        candidates: 20,
        score: () => Promise.reject(new Error('session released')),
      },
    });
    const { retrieval, result } = await p.run(
      p.analyse('ledger zanzibar bookkeeping'),
      everyone,
    );
    expect(ids(retrieval)).toEqual(ids(base));
    expect(retrieval.chunks.map(c => c.rank)).toEqual([1, 2, 3]);
    expect(retrieval.reranker).toMatchObject({
      modelId: 'test/broken',
      status: 'failed',
      error: 'session released',
    });
    expect(result.status).toBe('evidence_only');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(
      /reranker test\/broken failed, keeping the fused order: session released/,
    );
  });

  it('reads the question with the typo corrections, and can be turned off per call', async () => {
    const reranker = stubReranker(20, () => 0);
    const p = pipeline({ retrieval: WIDE, reranker });
    const q = await p.embed(p.analyse('ledgr bookkeeping'));
    const r = await p.retrieve(q, payOnly);
    expect(r.corrections).toEqual([{ from: 'ledgr', to: 'ledger' }]);
    expect(reranker.calls.map(c => c.question)).toEqual(['ledger bookkeeping']);

    const off = await p.retrieve(q, payOnly, { rerank: false });
    expect(off.reranker).toBeUndefined();
    expect(reranker.calls).toHaveLength(1);
  });
});

/** An AskService over the seeded index, everything visible, as the plugin builds it. */
function askService(
  options: Partial<ConstructorParameters<typeof AskService>[0]> = {},
) {
  return new AskService({
    index: new KnowledgeIndex(db.knex),
    store: new DatabaseAskDocsStore(db.knex),
    permissions: fakePermissions({ chunk: 'ALLOW' }),
    embedder: { ...embedder, kind: 'transformers', dimension: 4 } as any,
    analyzers,
    model: undefined,
    retrieval: PRODUCT,
    answer: {},
    logger: mockServices.logger.mock(),
    ...options,
  });
}

describe('AskService with a reranker', () => {
  it('records in the audit log whether the reranker ran, with its model and scores', async () => {
    const store = new DatabaseAskDocsStore(db.knex);
    const calls: string[][] = [];
    const service = askService({
      store,
      reranker: {
        modelId: 'test/audit-reranker',
        candidates: 20,
        async score(_q, passages) {
          calls.push(passages);
          return passages.map(p => (p.includes('zanzibar') ? 1 : 0));
        },
      },
    });
    const credentials = mockCredentials.user('user:default/someone');
    const answered = await service.ask(
      { question: 'ledger refunds' },
      { credentials },
    );
    const stored = (await store.getAnswer(answered.id))!;
    const policy = stored.policy as any;
    expect(calls).toHaveLength(1);
    expect(policy.reranker).toMatchObject({
      modelId: 'test/audit-reranker',
      status: 'reranked',
    });
    expect(policy.reranker.scores).toHaveLength(calls[0].length);
    // The stored ranks are the reranked order: the chunk second when fused is first.
    expect(policy.reranker.scores.map((r: any) => r.chunkId)).toEqual([
      'refunds',
      'secret',
    ]);
    const byRank = [...stored.retrieved].sort((a, b) => a.rank - b.rank);
    expect(byRank.map(r => r.chunkId)).toEqual(['secret', 'refunds']);

    // A refused question records no reranker run.
    const refused = await service.ask(
      { question: 'weather sunny today' },
      { credentials },
    );
    expect(refused.status).toBe('not_in_knowledge_base');
    const refusedPolicy = (await store.getAnswer(refused.id))!.policy as any;
    expect(refusedPolicy.reranker).toBeUndefined();
    expect(calls).toHaveLength(1);
  });
});

describe('AskService metrics', () => {
  /** The answers counter of a fresh metrics service, and a service reporting to it. */
  function counted(store = new DatabaseAskDocsStore(db.knex)) {
    const mock = metricsServiceMock.mock();
    const metrics = AskDocsMetrics.create(mock);
    const answers = (mock.createCounter as jest.Mock).mock.results[
      (mock.createCounter as jest.Mock).mock.calls.findIndex(
        ([name]) => name === 'ask_docs.answers',
      )
    ].value;
    const service = askService({ store, metrics });
    return { service, calls: () => answers.add.mock.calls };
  }
  const credentials = mockCredentials.user('user:default/someone');

  it('counts each ask once, by how it ended, a client that left too', async () => {
    const { service, calls } = counted();
    await service.ask({ question: 'ledger refunds' }, { credentials });
    await service.ask({ question: 'weather sunny today' }, { credentials });
    const left = new AbortController();
    left.abort();
    await expect(
      service.ask(
        { question: 'ledger refunds' },
        { credentials, signal: left.signal },
      ),
    ).rejects.toThrow();
    expect(calls()).toEqual([
      [1, { status: 'evidence_only', grounded: false }],
      [1, { status: 'not_in_knowledge_base', grounded: false }],
      [1, { status: 'abandoned', grounded: false }],
    ]);
  });

  it('counts an ask whose record could not be written as failed', async () => {
    const store = new DatabaseAskDocsStore(db.knex);
    store.insertAnswer = async () => {
      throw new Error('the database is gone');
    };
    const { service, calls } = counted(store);
    await expect(
      service.ask({ question: 'ledger refunds' }, { credentials }),
    ).rejects.toThrow('the database is gone');
    expect(calls()).toEqual([[1, { status: 'failed', grounded: false }]]);
  });
});

describe('AskService.stop (the backend shutting down)', () => {
  /** A model that answers when `release` is called, or fails when its call is aborted. */
  function heldModel(): ChatModel & {
    entered: Promise<void>;
    release(): void;
  } {
    let enter: () => void = () => {};
    let release: () => void = () => {};
    const released = new Promise<void>(r => (release = r));
    return {
      model: 'held',
      entered: new Promise<void>(r => (enter = r)),
      release: () => release(),
      async complete(_messages, options = {}) {
        enter();
        options.onDelta?.('The ledger [Payments]');
        await new Promise<void>((resolve, reject) => {
          released.then(resolve);
          options.signal?.addEventListener('abort', () =>
            reject(options.signal?.reason),
          );
        });
        return 'The ledger keeps the records [Payments].';
      },
    };
  }
  const statuses = (userRef: string) =>
    db
      .knex('ask_docs_answers')
      .where('user_ref', userRef)
      .pluck('status') as Promise<string[]>;

  it('records an ask still waiting for the model as abandoned before it resolves', async () => {
    const model = heldModel();
    const service = askService({ model });
    const userRef = 'user:default/stop-abandoned';
    const asked = service.ask(
      { question: 'ledger refunds' },
      { credentials: mockCredentials.user(userRef), onDelta: () => {} },
    );
    asked.catch(() => {});
    await model.entered;
    await service.stop(50, 5_000);
    // Told as Backstage tells requests during a shutdown: 503, ask again; nothing of what the
    // abort broke (its message could name a host or a key) reaches the caller.
    const error = await asked.catch(e => e);
    expect(error).toMatchObject({
      name: 'ServiceUnavailableError',
      message: RESTARTING_MESSAGE,
    });
    expect(error.cause).toBeUndefined();
    expect(clientErrorStatus(error)).toBe(503);
    // Written before stop() resolved: the database closes after the shutdown hooks.
    expect(await statuses(userRef)).toEqual(['abandoned']);
    const [record] = await db
      .knex('ask_docs_answers')
      .where('user_ref', userRef)
      .select('raw_output', 'llm_model');
    expect(record).toEqual({
      raw_output: 'The ledger [Payments]',
      llm_model: 'held',
    });
  });

  it('answers an ask after the stop with 503, and a client that left as before', async () => {
    const service = askService({ model: heldModel() });
    await service.stop(0, 0);
    await expect(
      service.ask(
        { question: 'ledger refunds' },
        { credentials: mockCredentials.user('user:default/stop-late') },
      ),
    ).rejects.toMatchObject({ name: 'ServiceUnavailableError' });
    // A client gone already keeps its own reason, also after the stop.
    const client = new AbortController();
    client.abort(new Error('The client closed the connection'));
    const asked = service.ask(
      { question: 'ledger refunds' },
      {
        credentials: mockCredentials.user('user:default/stop-left'),
        signal: client.signal,
      },
    );
    const error = await asked.catch(e => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toMatchObject({ name: 'ServiceUnavailableError' });
  });

  it('lets an ask finish within the grace period', async () => {
    const model = heldModel();
    const service = askService({ model });
    const userRef = 'user:default/stop-finished';
    const asked = service.ask(
      { question: 'ledger refunds' },
      { credentials: mockCredentials.user(userRef) },
    );
    await model.entered;
    const stopped = service.stop(60_000, 5_000);
    model.release();
    await stopped;
    expect((await asked).status).toBe('answered');
    expect(await statuses(userRef)).toEqual(['answered']);
  });
});

describe('AskService while the visibility attributes are stale', () => {
  const credentials = mockCredentials.user('user:default/stale-asker');
  const asked = () =>
    db
      .knex('ask_docs_answers')
      .where('user_ref', 'user:default/stale-asker')
      .pluck('status');
  afterEach(async () => {
    await new DatabaseAskDocsStore(db.knex).configureVisibilityFreshness(
      undefined,
    );
  });

  it('answers 503 saying why, not "not in the knowledge base", and records nothing', async () => {
    const store = new DatabaseAskDocsStore(db.knex);
    const service = askService({ store });
    await store.configureVisibilityFreshness(60);
    await store.recordVisibilitySync(await store.databaseNow());
    expect(
      (await service.ask({ question: 'ledger refunds' }, { credentials }))
        .status,
    ).toBe('evidence_only');
    // The last complete listing started longer ago than the bound allows.
    await db.knex.raw(
      `UPDATE ask_docs_visibility_sync
          SET last_success_at = now() - interval '61 seconds'`,
    );
    for (const call of [
      () => service.ask({ question: 'ledger refunds' }, { credentials }),
      () => service.search({ question: 'ledger refunds' }, { credentials }),
    ]) {
      const error = await call().catch(e => e);
      expect(error).toMatchObject({
        name: 'ServiceUnavailableError',
        message: STALE_VISIBILITY_MESSAGE,
      });
      expect(clientErrorStatus(error)).toBe(503);
    }
    expect(await asked()).toEqual(['evidence_only']);
    // With the guard off, age does not matter.
    await store.configureVisibilityFreshness(undefined);
    expect(
      (await service.ask({ question: 'ledger refunds' }, { credentials }))
        .status,
    ).toBe('evidence_only');
  });
});

describe('AskService model quota', () => {
  const quota = { calls: 2, windowSeconds: 3600 };
  const user = (name: string) =>
    mockCredentials.user(`user:default/quota-${name}`);

  function limited(model = recordingModel()) {
    const store = new DatabaseAskDocsStore(db.knex);
    const mock = metricsServiceMock.mock();
    const service = askService({
      store,
      model,
      modelQuota: quota,
      metrics: AskDocsMetrics.create(mock),
    });
    const counter = (name: string) =>
      (mock.createCounter as jest.Mock).mock.results[
        (mock.createCounter as jest.Mock).mock.calls.findIndex(
          ([n]) => n === name,
        )
      ].value;
    return { service, store, model, counter };
  }

  it(`asks the model at most \`calls\` times per user, then shows that user \
    the evidence`, async () => {
    const { service, store, model, counter } = limited();
    const a = user('a');
    for (let i = 0; i < 2; i++)
      await service.ask({ question: 'ledger refunds' }, { credentials: a });
    expect(model.seen).toHaveLength(2);

    const held = await service.ask(
      { question: 'ledger refunds' },
      { credentials: a },
    );
    expect(model.seen).toHaveLength(2);
    expect(held.status).toBe('evidence_only');
    expect(held.grounded).toBe(false);
    expect(held.notice).toMatch(
      /had 2 language model answers in the last hour, this portal's limit/,
    );
    expect(held.reason).toBe('quota_exceeded');
    expect(held.quota).toEqual(quota);
    // Read back later, the record keeps why it holds no model answer.
    const replayed = await service.getAnswer(held.id, { credentials: a });
    expect(replayed!.reason).toBe('quota_exceeded');
    expect(replayed!.quota).toEqual(quota);
    expect(held.evidence.length).toBeGreaterThan(0);
    expect(held.llmModel).toBeUndefined();
    const stored = (await store.getAnswer(held.id))!;
    expect((stored.policy as any).modelQuota).toEqual({ ...quota, used: 2 });
    expect(counter('ask_docs.model.quota_exceeded').add).toHaveBeenCalledTimes(
      1,
    );

    // Another user's calls are theirs.
    const other = await service.ask(
      { question: 'ledger refunds' },
      { credentials: user('b') },
    );
    expect(model.seen).toHaveLength(3);
    expect(other.reason).not.toBe('quota_exceeded');
    expect(other.quota).toBeUndefined();
    expect((await store.getAnswer(other.id))!.policy).not.toHaveProperty(
      'modelQuota',
    );

    // A question refused for want of evidence is not held: the model would not be asked.
    const refused = await service.ask(
      { question: 'weather sunny today' },
      { credentials: a },
    );
    expect(refused.status).toBe('not_in_knowledge_base');
    expect(refused.reason).toBe('no_evidence');
    expect((await store.getAnswer(refused.id))!.policy).not.toHaveProperty(
      'modelQuota',
    );
  });

  it('asks the model again once the calls have left the window', async () => {
    const { service, model } = limited();
    const c = user('c');
    for (let i = 0; i < 3; i++)
      await service.ask({ question: 'ledger refunds' }, { credentials: c });
    expect(model.seen).toHaveLength(2);
    await db
      .knex('ask_docs_answers')
      .where('user_ref', 'user:default/quota-c')
      .update({ created_at: db.knex.raw("now() - interval '2 hours'") });
    const again = await service.ask(
      { question: 'ledger refunds' },
      { credentials: c },
    );
    expect(model.seen).toHaveLength(3);
    expect(again.reason).not.toBe('quota_exceeded');
  });

  it('holds parallel asks past the limit before any of them is recorded', async () => {
    let open!: () => void;
    const gate = new Promise<void>(resolve => (open = resolve));
    const model = recordingModel();
    const slow: ChatModel = {
      model: 'slow',
      async complete(messages) {
        await gate;
        return model.complete(messages);
      },
    };
    const { service } = limited(slow as any);
    const e = user('e');
    const asks = [1, 2, 3].map(() =>
      service.ask({ question: 'ledger refunds' }, { credentials: e }),
    );
    // Whichever two reach the model first wait there; the third is held, so it ends first.
    // Were none held, all three would wait: the timer fails the test instead of hanging it.
    let timer: NodeJS.Timeout | undefined;
    const none = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('no ask was held')), 30_000);
    });
    try {
      const held = await Promise.race([...asks, none]);
      expect(held.reason).toBe('quota_exceeded');
    } finally {
      clearTimeout(timer);
      open();
    }
    const all = await Promise.all(asks);
    expect(model.seen).toHaveLength(2);
    expect(all.filter(r => r.reason === 'quota_exceeded')).toHaveLength(1);
    // Recorded now: the next one is held by the table's count.
    const fourth = await service.ask(
      { question: 'ledger refunds' },
      { credentials: e },
    );
    expect(fourth.reason).toBe('quota_exceeded');
  });

  it('counts an ask its asker left while the model answered', async () => {
    const left = new AbortController();
    // The asker leaves once the model has the question.
    const model: ChatModel = {
      model: 'left',
      complete: (_m, o) =>
        new Promise((_resolve, reject) => {
          o?.signal?.addEventListener('abort', () =>
            reject(new DOMException('aborted', 'AbortError')),
          );
          left.abort();
        }),
    };
    const service = askService({
      store: new DatabaseAskDocsStore(db.knex),
      model,
      modelQuota: { calls: 1, windowSeconds: 3600 },
    });
    const f = user('f');
    await expect(
      service.ask(
        { question: 'ledger refunds' },
        { credentials: f, signal: left.signal },
      ),
    ).rejects.toThrow();
    const next = await service.ask(
      { question: 'ledger refunds' },
      { credentials: f },
    );
    expect(next.reason).toBe('quota_exceeded');
  });

  it("reports the 'generating' phase only when the model is asked", async () => {
    const phases = async (service: AskService, name: string) => {
      const onPhase = jest.fn();
      await service.ask(
        { question: 'ledger refunds' },
        { credentials: user(name), onPhase },
      );
      return onPhase.mock.calls.map(([phase]) => phase);
    };
    const { service } = limited();
    expect(await phases(service, 'g')).toEqual(['generating']);
    await phases(service, 'g');
    // Held by the quota: the evidence comes without the model, and without "writing".
    expect(await phases(service, 'g')).toEqual([]);
    // No model at all: likewise.
    expect(await phases(askService(), 'h')).toEqual([]);
  });

  it('counts nothing without a quota', async () => {
    const store = new DatabaseAskDocsStore(db.knex);
    const count = jest.spyOn(store, 'countModelCalls');
    const service = askService({ store, model: recordingModel() });
    for (let i = 0; i < 3; i++)
      await service.ask(
        { question: 'ledger refunds' },
        { credentials: user('d') },
      );
    expect(count).not.toHaveBeenCalled();
  });
});
