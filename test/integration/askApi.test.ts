/*
 * The answers API end to end: real backend plugins (TechDocs + ask-docs), real Postgres + pgvector,
 * the real openai client against a fake OpenAI-compatible server over HTTP, and per-user
 * conditional permission decisions.
 */
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { metricsServiceMock } from '@backstage/backend-test-utils/alpha';
import {
  askDocsAdministrativePermissions,
  NOT_IN_KNOWLEDGE_BASE_ANSWER,
} from '@askdocs/plugin-ask-docs-common';
import fs from 'fs';
import path from 'path';
import request from 'supertest';
import {
  CONTEXT_LENGTH_EXCEEDED,
  FakeOpenAI,
  FakeReply,
  startFakeOpenAI,
} from '../fake-openai';
import {
  startTestDatabase,
  TestDatabase,
} from '../../plugins/ask-docs-backend/src/testUtils/testDatabase';
import {
  AskDocsTestBackend,
  bufferText,
  citeAsLabels,
  citeFirstBlock,
  fakeModelSettings,
  fakePermissions,
  ingestThroughApi,
  parseEvents,
  restrictedToOwnersDecision,
  startAskDocsTestBackend,
  userRefOf,
  buildSampleDocs,
  writeMetadata,
} from '../src';

const alice = 'user:default/alice'; // team-payments
const bob = 'user:default/bob'; // team-security
const claims: Record<string, string[]> = {
  [alice]: [alice, 'group:default/team-payments'],
  [bob]: [bob, 'group:default/team-security'],
};

/** The dev policy's shape: restricted documents only for their owners; alice administers. */
let failing = false;
const permissions = fakePermissions(credentials => {
  const user = userRefOf(credentials) ?? '';
  return {
    fail: failing,
    chunk: restrictedToOwnersDecision(claims[user] ?? []),
    otherResources: 'DENY',
    basic: name =>
      askDocsAdministrativePermissions.some(p => p.name === name) &&
      user !== alice
        ? 'DENY'
        : 'ALLOW',
  };
});

describe('answers API', () => {
  // Backstage's auditor and metrics services, as every plugin of the backend gets them.
  const auditor = mockServices.auditor.mock();
  const metrics = metricsServiceMock.mock();
  let db: TestDatabase;
  let fake: FakeOpenAI;
  let publishDir: string;
  let backend: AskDocsTestBackend;
  const as = (user: string) => mockCredentials.user.header(user);
  const ask = (
    question: unknown,
    user = alice,
    body: Record<string, unknown> = {},
  ) =>
    request(backend.server)
      .post('/api/ask-docs/v1/ask')
      .set('Authorization', as(user))
      .send({ question, ...body });
  /** An answer's audit record as stored. */
  const storedAnswer = (id: string) =>
    db.knex('ask_docs_answers').where('id', id).first();

  beforeAll(async () => {
    db = await startTestDatabase({ migrate: false });
    fake = await startFakeOpenAI({ behaviour: citeFirstBlock });
    const sample = buildSampleDocs('ask-docs-api-');
    publishDir = sample.publishDir;
    const entities = sample.entities;
    backend = await startAskDocsTestBackend({
      db,
      publishDir,
      entities,
      permissions,
      askDocsConfig: { llm: fakeModelSettings(fake.baseUrl, 1500) },
      features: [auditor.factory, metrics.factory],
    });
    await ingest();
  });

  afterAll(async () => {
    await backend?.stop();
    await fake?.stop();
    await db?.stop();
    fs.rmSync(publishDir, { recursive: true, force: true });
  });

  beforeEach(() => {
    fake.setBehaviour(citeFirstBlock);
    fake.reset();
    failing = false;
  });

  async function ingest() {
    expect((await ingestThroughApi(backend.server, alice)).status).toBe(
      'succeeded',
    );
  }

  it('answers with a cited source that opens the TechDocs page at the section anchor', async () => {
    const res = await ask('How do I roll back a payments release?');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('answered');
    expect(res.body.grounded).toBe(true);
    expect(fake.calls).toBe(1);
    expect(res.body.sources).toHaveLength(1);
    const [source] = res.body.sources;
    expect(source.title).toBe('Release process');
    expect(source.url).toBe(
      '/docs/default/component/payments-service/release-process/#rollback',
    );
    expect(source.snippet).toMatch(/roll back/i);
    expect(res.body.answer).toContain('[Release process');
  });

  it(`says "not in the knowledge base" without calling the model when nothing relevant is \
visible`, async () => {
    const res = await ask(
      'How do I rotate the Kubernetes service account token of our deploy pipeline?',
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'not_in_knowledge_base',
      grounded: false,
      answer: NOT_IN_KNOWLEDGE_BASE_ANSWER,
      reason: 'no_evidence',
      sources: [],
    });
    expect(fake.calls).toBe(0);
  });

  it('returns the evidence, labelled not grounded, when the model fails', async () => {
    const failures: FakeReply[] = [
      { status: 500 },
      { status: 429 },
      { hang: true },
      { close: true },
    ];
    for (const failure of failures) {
      fake.setBehaviour(() => failure);
      const res = await ask('How do I roll back a payments release?');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('evidence_only');
      expect(res.body.grounded).toBe(false);
      expect(res.body.sources).toEqual([]);
      expect(res.body.notice).toMatch(/not an answer/i);
      expect(res.body.reason).toBe('model_failed');
      expect(res.body.evidence.map((e: any) => e.title)).toContain(
        'Release process',
      );
    }
  });

  it('says on /health what runs and why the model failed, to a signed-in caller only', async () => {
    const health = (user?: string) => {
      const req = request(backend.server)
        .get('/api/ask-docs/health')
        .set('Authorization', user ? as(user) : mockCredentials.none.header());
      return req.then(r => {
        expect(r.status).toBe(200);
        return r.body;
      });
    };
    fake.setBehaviour(() => ({ status: 401 }));
    const res = await ask('How do I roll back a payments release?');
    expect(res.body.status).toBe('evidence_only');
    expect((await health(alice)).llm).toEqual({
      configured: true,
      model: 'fake-model',
      lastFailure: { reason: 'rejected', at: expect.any(String) },
    });
    expect(await health(alice)).toMatchObject({
      status: 'ok',
      embedder: { kind: 'hashing-fallback' },
      languages: expect.arrayContaining(['en']),
      // The ingestion run counts as a complete listing.
      visibility: {
        stale: false,
        maxStalenessSeconds: 3600,
        lastSyncAt: expect.any(String),
      },
    });
    // Anonymous (a load balancer's probe): up, and nothing about the models.
    expect(await health()).toEqual({ status: 'ok' });
    // A call that succeeds clears it.
    fake.setBehaviour(citeFirstBlock);
    expect(
      (await ask('How do I roll back a payments release?')).body.status,
    ).toBe('answered');
    expect((await health(alice)).llm.lastFailure).toBeUndefined();
  });

  it('says when the model refused a prompt over its context window', async () => {
    fake.setBehaviour(() => CONTEXT_LENGTH_EXCEEDED);
    const res = await ask('How do I roll back a payments release?');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'evidence_only',
      grounded: false,
      reason: 'context_too_large',
      sources: [],
    });
    const health = await request(backend.server)
      .get('/api/ask-docs/health')
      .set('Authorization', as(alice));
    expect(health.body.llm.lastFailure).toEqual({
      reason: 'context_too_large',
      at: expect.any(String),
    });
    fake.setBehaviour(citeFirstBlock);
  });

  it('never makes a source of a title the model invented or only mentioned', async () => {
    fake.setBehaviour(() => 'Roll back with deployctl. [Deployment handbook]');
    let res = await ask('How do I roll back a payments release?');
    expect(res.body.status).toBe('evidence_only');
    expect(res.body.sources).toEqual([]);

    fake.setBehaviour(
      () => 'As the Release process page says, roll back with deployctl.',
    );
    res = await ask('How do I roll back a payments release?');
    expect(res.body.status).toBe('evidence_only');
    expect(res.body.sources).toEqual([]);
  });

  it('accepts a section suffix and picks that section', async () => {
    fake.setBehaviour(
      () =>
        'Hotfixes branch from the last release tag. [Release process › Hotfixes]',
    );
    const res = await ask(
      'Where does a hotfix branch from in the payments release process?',
    );
    expect(res.body.status).toBe('answered');
    expect(res.body.sources).toHaveLength(1);
    expect(res.body.sources[0].anchor).toBe('hotfixes');
    // The marker's own link, in the REST answer.
    expect(res.body.sources[0].citations).toEqual([
      {
        label: 'Release process › Hotfixes',
        url: expect.stringMatching(/^\/docs\/.*#hotfixes$/),
      },
    ]);
  });

  it(`keeps restricted documents away from users who may not read them, in answers, evidence and \
prompts`, async () => {
    const question = 'What is the codename for a leaked acquirer key?';
    const denied = await ask(question, alice);
    expect(denied.body.status).toBe('not_in_knowledge_base');
    expect(JSON.stringify(denied.body)).not.toMatch(
      /bluefalcon|Security runbooks|Incident response/i,
    );
    expect(fake.calls).toBe(0);

    const allowed = await ask(question, bob);
    expect(allowed.body.status).toBe('answered');
    expect(allowed.body.sources[0].entityRef).toBe(
      'component:default/security-runbooks',
    );
    expect(fake.requests.map(r => JSON.stringify(r.messages)).join()).toMatch(
      /bluefalcon/,
    );

    // the model-down path must not leak either
    fake.setBehaviour(() => ({ status: 503 }));
    // Alice's own evidence (the payments release) next to the restricted runbook's words.
    const evidence = await ask(
      'roll back a payments release after an acquirer key rotation',
      alice,
    );
    // Served, on the model-down path, with Alice's own evidence: the scan is of a real reply.
    expect(evidence.status).toBe(200);
    expect(evidence.body).toMatchObject({
      status: 'evidence_only',
      grounded: false,
    });
    expect(evidence.body.evidence.length).toBeGreaterThan(0);
    expect(JSON.stringify(evidence.body)).not.toMatch(
      /bluefalcon|Security runbooks/i,
    );
  });

  it('corrects typos only from the asker’s own vocabulary', async () => {
    // "bluefalcn" is one edit away from a word that only the restricted runbook contains
    const forAlice = await ask('bluefalcn', alice);
    expect(forAlice.body.corrections ?? []).toEqual([]);
    expect(JSON.stringify(forAlice.body)).not.toMatch(/bluefalcon/i);
    const forBob = await ask('bluefalcn', bob);
    expect(forBob.body.corrections).toEqual([
      { from: 'bluefalcn', to: 'bluefalcon' },
    ]);
  });

  it('denies everything when the permission check fails', async () => {
    failing = true;
    const res = await ask('How do I roll back a payments release?');
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).not.toMatch(/rollback|deployctl/i);
    expect(fake.calls).toBe(0);
  });

  it('rejects bad input with a clear 400', async () => {
    expect((await ask('')).status).toBe(400);
    expect((await ask('   ')).status).toBe(400);
    expect((await ask('x'.repeat(2001))).status).toBe(400);
    expect((await ask(42)).status).toBe(400);
    expect(
      (await ask('ok?', alice, { scope: { entityRefs: 'not-a-list' } })).status,
    ).toBe(400);
    expect((await ask('ok?', alice, { unexpected: true })).status).toBe(400);
    const res = await ask('');
    expect(res.body.error.message).toMatch(/empty/);
    expect(fake.calls).toBe(0);
  });

  it('streams the answer as server-sent events ending with the full response', async () => {
    const res = await request(backend.server)
      .post('/api/ask-docs/v1/ask/stream')
      .set('Authorization', as(alice))
      .send({ question: 'How do I roll back a payments release?' })
      .buffer(true)
      .parse(bufferText);
    expect(res.headers['content-type']).toMatch(/text\/event-stream/);
    const events = parseEvents(res.body);
    const deltas = events
      .filter(e => e.type === 'delta')
      .map(e => e.text)
      .join('');
    const done = events.find(e => e.type === 'done');
    expect(events[0]).toEqual({ type: 'status', phase: 'retrieving' });
    expect(done.response.status).toBe('answered');
    expect(done.response).not.toHaveProperty('reason');
    expect(deltas).toBe(done.response.answer);
  });

  it('answers a question in a chat message as the bare one, and records the rest', async () => {
    const bare = await ask('How do I roll back a payments release?');
    const chat = await ask(
      "Hi, quick question: how do I roll back a payments release? I'm stuck, thanks!",
    );
    expect(chat.body.status).toBe(bare.body.status);
    expect(chat.body.sources).toEqual(bare.body.sources);
    const stored = await storedAnswer(chat.body.id);
    // The record keeps the question as asked and says what was not searched for.
    expect(stored.question).toMatch(/^Hi, quick question/);
    expect(stored.policy.smallTalk).toEqual([
      'Hi,',
      'quick question:',
      "I'm stuck,",
      'thanks!',
    ]);
  });

  it(`answers a question after a sentence of the asker's situation as the bare one, and records \
that sentence`, async () => {
    const bare = await ask('How do I roll back a payments release?');
    const framed = await ask(
      'We are migrating our internal services to another datacentre this quarter. ' +
        'How do I roll back a payments release?',
    );
    expect(bare.body.status).toBe('answered');
    expect(framed.body.status).toBe(bare.body.status);
    expect(framed.body.sources).toEqual(bare.body.sources);
    const stored = await storedAnswer(framed.body.id);
    expect(stored.policy.situation).toEqual([
      'We are migrating our internal services to another datacentre this quarter.',
    ]);
    expect(stored.policy).not.toHaveProperty('smallTalk');
  });

  /**
   * The events the plugin logged with `eventId` (from the `since`th created on): how each was
   * created and how it ended.
   */
  async function auditEvents(eventId: string, since = 0) {
    const created = auditor.createEvent.mock.calls
      .map(([options], i) => ({ options, i }))
      .filter(({ options, i }) => i >= since && options.eventId === eventId);
    return Promise.all(
      created.map(async ({ options, i }) => {
        const event = await auditor.createEvent.mock.results[i].value;
        return {
          options,
          succeeded: event.success.mock.calls.map((c: any[]) => c[0]),
          failed: event.fail.mock.calls.map((c: any[]) => c[0]),
        };
      }),
    );
  }
  /** The instrument the plugin created under `name`. */
  const instrument = (
    kind: 'createCounter' | 'createHistogram',
    name: string,
  ) =>
    (metrics[kind] as jest.Mock).mock.results[
      (metrics[kind] as jest.Mock).mock.calls.findIndex(([n]) => n === name)
    ].value;

  it('audits and counts each ask: the request, the answer id, never the question', async () => {
    const since = auditor.createEvent.mock.calls.length;
    const answers = instrument('createCounter', 'ask_docs.answers');
    answers.add.mockClear();
    const res = await ask('How do I roll back a payments release?');
    const [event, ...more] = await auditEvents('ask', since);
    expect(more).toEqual([]);
    // The request lets the auditor name the asker (and the client's address).
    expect(event.options.request?.originalUrl).toBe('/api/ask-docs/v1/ask');
    expect(event.options.request?.headers.authorization).toBe(as(alice));
    expect(event.succeeded).toEqual([
      {
        meta: { answerId: res.body.id, status: 'answered', grounded: true },
      },
    ]);
    expect(JSON.stringify([event.options.meta, event.succeeded])).not.toMatch(
      /roll back/,
    );
    expect(answers.add.mock.calls).toEqual([
      [1, { status: 'answered', grounded: true }],
    ]);
  });

  it('audits and counts the ingestion run an administrator started', async () => {
    const [run] = await auditEvents('ingestion-run');
    expect(run.options.severityLevel).toBe('medium');
    expect(run.succeeded).toEqual([
      { meta: { runId: expect.any(Number), started: true } },
    ]);
    expect(
      instrument('createCounter', 'ask_docs.ingestion.runs').add,
    ).toHaveBeenCalledWith(1, { outcome: 'succeeded' });
    const pages = instrument('createCounter', 'ask_docs.ingestion.pages');
    expect(pages.add).toHaveBeenCalledWith(expect.any(Number), {
      result: 'indexed',
    });
    expect(
      pages.add.mock.calls.find((c: any[]) => c[1].result === 'indexed')[0],
    ).toBeGreaterThan(0);
  });

  it('logs every answer with the retrieved set and replays it for the asker only', async () => {
    const res = await ask('How do I roll back a payments release?');
    const stored = await storedAnswer(res.body.id);
    expect(stored.user_ref).toBe(alice);
    expect(stored.llm_model).toBe('fake-model');
    expect(stored.raw_output).toContain('[Release process');
    expect(stored.retrieved.length).toBeGreaterThan(0);
    expect(
      stored.retrieved.every(
        (c: any) => c.revision && c.contentHash && c.chunkId,
      ),
    ).toBe(true);
    expect(stored.retrieved.filter((c: any) => c.sent).length).toBeGreaterThan(
      0,
    );
    // ...and the settings that ranked them (the hashing fallback's fusion weights here)
    // (the fallback's score fusion, every default filled in: the record outlives the defaults)
    expect(stored.policy.retrieval).toMatchObject({
      k: 8,
      candidates: 40,
      weights: { vector: 0.1, keyword: 1 },
      fusion: 'scores',
      scoreWeights: { keyword: 1, vector: 1 },
      releaseNotesPenalty: expect.any(Number),
    });
    expect(stored.policy.retrieval.thresholds).toEqual({
      minSimilarity: expect.any(Number),
      minCoverage: expect.any(Number),
    });
    expect(stored.policy.corrections).toEqual([]);
    expect(stored.policy).not.toHaveProperty('smallTalk');
    expect(stored.policy).not.toHaveProperty('situation');
    // ...and what made the answer from them: defaults filled in, the prompt's version, the
    // model's settings (never its key or address)
    expect(stored.policy.answer).toEqual({
      maxContextChars: 12_000,
      maxBlocks: 8,
      maxEvidence: 5,
      verifyClaims: expect.any(Boolean),
      minClaimOverlap: expect.any(Number),
      promptVersion: expect.stringMatching(/^\d+\.[0-9a-f]{12}$/),
      model: { temperature: 0, timeoutMs: 1500, maxRetries: 0 },
    });
    // the exact texts that were sent are addressable by (chunk id, content hash): current
    // ones in the chunk rows, stored once (no copy among the versions, migration 0008)
    for (const c of stored.retrieved) {
      const key = { chunk_id: c.chunkId, content_hash: c.contentHash };
      expect(await db.knex('ask_docs_chunks').where(key).first()).toBeDefined();
      expect(
        await db.knex('ask_docs_chunk_versions').where(key).first(),
      ).toBeUndefined();
    }

    const replay = await request(backend.server)
      .get(`/api/ask-docs/v1/answers/${res.body.id}`)
      .set('Authorization', as(alice));
    expect(replay.status).toBe(200);
    expect(replay.body.sources).toEqual(res.body.sources);
    // One time for the answer: the database's, in the response as in the replay.
    expect(replay.body.createdAt).toBe(res.body.createdAt);
    expect(new Date(res.body.createdAt).getTime()).toBe(
      new Date(stored.created_at).getTime(),
    );
    expect(replay.body.outdatedSources).toEqual([]);
    const other = await request(backend.server)
      .get(`/api/ask-docs/v1/answers/${res.body.id}`)
      .set('Authorization', as(bob));
    expect(other.status).toBe(404);
    const ingestionForBob = await request(backend.server)
      .get('/api/ask-docs/v1/ingestion')
      .set('Authorization', as(bob));
    expect(ingestionForBob.status).toBe(403);
    const list = await request(backend.server)
      .get('/api/ask-docs/v1/answers?limit=5')
      .set('Authorization', as(alice));
    expect(list.body.items[0].id).toBe(res.body.id);

    const feedback = await request(backend.server)
      .post(`/api/ask-docs/v1/answers/${res.body.id}/feedback`)
      .set('Authorization', as(alice))
      .send({ rating: 'up' });
    expect(feedback.status).toBe(204);
    expect((await storedAnswer(res.body.id)).feedback).toEqual({
      rating: 'up',
    });
    // An id of any other form is as unknown, in replay, feedback and threads (never a 500).
    for (const id of ['a'.repeat(36), '-'.repeat(36), 'not-an-id']) {
      const unknown = await request(backend.server)
        .get(`/api/ask-docs/v1/answers/${id}`)
        .set('Authorization', as(alice));
      expect(unknown.status).toBe(404);
      const rated = await request(backend.server)
        .post(`/api/ask-docs/v1/answers/${id}/feedback`)
        .set('Authorization', as(alice))
        .send({ rating: 'up' });
      expect(rated.status).toBe(404);
      const followUp = await request(backend.server)
        .post('/api/ask-docs/v1/ask')
        .set('Authorization', as(alice))
        .send({
          question: 'How do I roll back a payments release?',
          threadId: id,
        });
      expect(followUp.status).toBe(200);
      expect(followUp.body.status).toBe(res.body.status);
    }
  });

  it("pages through the asker's history, older answers after `before`, none twice", async () => {
    for (const q of [
      'roll back payments',
      'deploy the till',
      'payments release',
    ])
      expect((await ask(q)).status).toBe(200);
    const list = (query: string, user = alice) =>
      request(backend.server)
        .get(`/api/ask-docs/v1/answers?${query}`)
        .set('Authorization', as(user));
    const paged = async () => {
      const ids: string[] = [];
      for (let before = ''; ; ) {
        const page = await list(`limit=2${before}`);
        expect(page.status).toBe(200);
        ids.push(...page.body.items.map((a: { id: string }) => a.id));
        if (page.body.items.length < 2) return ids;
        before = `&before=${ids[ids.length - 1]}`;
      }
    };
    const all = (await list('limit=100')).body.items.map((a: any) => a.id);
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(await paged()).toEqual(all);
    // Answers of one instant too: ordered by id within it, so none is skipped or repeated.
    await db
      .knex('ask_docs_answers')
      .where('user_ref', alice)
      .update({ created_at: new Date('2026-01-01T00:00:00Z') });
    const tied = (await list('limit=100')).body.items.map((a: any) => a.id);
    expect([...tied].sort()).toEqual([...all].sort());
    expect(await paged()).toEqual(tied);
    // Another user's answer pages nothing of alice's, and says nothing about it.
    const bobs = await ask('deploy the till', bob);
    const other = await list(`limit=5&before=${bobs.body.id}`);
    expect(other.status).toBe(200);
    expect(other.body.items).toEqual([]);
    for (const before of ['not-an-id', 'a'.repeat(36), ''])
      expect((await list(`limit=5&before=${before}`)).status).toBe(400);
  });

  it('says when a cited document has a newer revision than the answer', async () => {
    const res = await ask('How do I roll back a payments release?');
    expect(res.body.status).toBe('answered');
    const site = path.join(
      publishDir,
      'default',
      'component',
      'payments-service',
    );
    const page = path.join(site, 'release-process', 'index.html');
    fs.writeFileSync(
      page,
      fs
        .readFileSync(page, 'utf8')
        .replace('roll back at once', 'roll back within one minute'),
    );
    writeMetadata(site, 'Payments service');
    await ingest();
    const replay = await request(backend.server)
      .get(`/api/ask-docs/v1/answers/${res.body.id}`)
      .set('Authorization', as(alice));
    expect(replay.body.outdatedSources).toHaveLength(1);
    expect(replay.body.outdatedSources[0].title).toBe('Release process');
    expect(replay.body.outdatedSources[0].currentRevision).not.toBe(
      replay.body.outdatedSources[0].answeredRevision,
    );
  });

  it(`labels context blocks so a document cannot add sources by instructing the \
model`, async () => {
    fake.setBehaviour(request => {
      const labels = citeAsLabels(request);
      return (
        `Roll back with deployctl. ${labels[0]} ` +
        'Also see [Security runbooks] and [Incident response].'
      );
    });
    const res = await ask('How do I roll back a payments release?', alice);
    expect(res.body.sources.map((s: any) => s.title)).toEqual([
      'Release process',
    ]);
  });
});
