import { mockCredentials } from '@backstage/backend-test-utils';
import { InputError } from '@backstage/errors';
import { ChatMessage, ChatModel } from '../answer';
import { analyzeText, Analyzers, createLanguageAnalyzers } from '../language';
import { resolveVisibility, Visibility } from '../permissions';
import {
  cond,
  fakePermissions,
  FakeDecision,
} from '../testUtils/fakePermissions';
import { SeedChunk, seedIndex } from '../retrieval/testUtils/seed';
import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import {
  QuestionPipeline,
  QuestionPipelineOptions,
  RetrievalSettings,
} from './QuestionPipeline';
import { KnowledgeIndex } from '../database/IndexReader';

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
    expect(p.settings).toBe(PRODUCT);
    expect(ids(await p.retrieve(q, payOnly))).toEqual(['ledger']);
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
