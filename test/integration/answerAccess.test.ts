/*
 * Who may read stored answers and run ingestion, over HTTP against the real backend: service
 * principals are not administrators (Backstage's permission service ALLOWs them, as the fake here
 * does), a plugin asking on behalf of a user gets that user's view, and every replay shows only
 * what the reader may see now.
 */
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  REDACTED_ANSWER_TEXT,
  REDACTED_NOTICE,
} from '@askdocs/plugin-ask-docs-common';
import request from 'supertest';
import {
  citeAsLabels,
  citeFirstBlock,
  engineeringHandbookSite,
  securityHandbookSite,
  useFakeModelBackend,
} from '../src';

const alice = 'user:default/alice';
const bob = 'user:default/bob'; // team-security: reads the restricted security handbook
const carol = 'user:default/carol'; // auditor without access to restricted documents
const SECURITY = 'How often does the narwhalkeys ceremony rotate keys?';
const SHARED = 'How many approving reviews does a change need before merge?';
const SECRET =
  /narwhalkeys|Key ceremony|Security handbook|hardware security module/i;

const claims: Record<string, string[]> = {
  [alice]: [alice, 'group:default/team-payments'],
  [bob]: [bob, 'group:default/team-security'],
  [carol]: [carol],
};

const sites = [securityHandbookSite(), engineeringHandbookSite()];

/** A header for a token another plugin would send; `as` is the user it acts for, or itself. */
async function pluginHeader(
  pluginId: string,
  as: { user: string } | { service: string },
) {
  const onBehalfOf =
    'user' in as
      ? mockCredentials.user(as.user)
      : mockCredentials.service(as.service);
  const { token } = await mockServices
    .auth({ pluginId })
    .getPluginRequestToken({ onBehalfOf, targetPluginId: 'ask-docs' });
  return `Bearer ${token}`;
}

describe('access to answers and ingestion', () => {
  const api = (path: string, authorization: string) =>
    request(env.backend.server)
      .get(`/api/ask-docs/v1${path}`)
      .set('Authorization', authorization);
  const user = (ref: string) => mockCredentials.user.header(ref);
  const ask = (question: string, authorization: string) =>
    request(env.backend.server)
      .post('/api/ask-docs/v1/ask')
      .set('Authorization', authorization)
      .send({ question });
  /** The record without the asker's own question, which may name what it asked about. */
  const withoutQuestion = (body: any) =>
    JSON.stringify({ ...body, question: undefined });
  /** A replay hiding what its reader may not see: the redacted text, no sources, no secret. */
  const expectRedacted = (res: request.Response, more: object = {}) => {
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      answer: REDACTED_ANSWER_TEXT,
      sources: [],
      ...more,
    });
    expect(withoutQuestion(res.body)).not.toMatch(SECRET);
  };

  const env = useFakeModelBackend(() => ({
    sites,
    claims,
    authorize: (permission, credentials) => {
      const ref = (credentials.principal as { userEntityRef: string })
        .userEntityRef;
      if (permission === 'ask-docs.audit.read')
        return ref === carol ? AuthorizeResult.ALLOW : AuthorizeResult.DENY;
      if (permission === 'ask-docs.ingestion.run') {
        return ref === 'user:default/admin'
          ? AuthorizeResult.ALLOW
          : AuthorizeResult.DENY;
      }
      return AuthorizeResult.ALLOW;
    },
    askDocsConfig: {
      permissions: {
        services: [
          {
            subject: 'external:ci-bot',
            permissions: ['ask-docs.ingestion.run'],
          },
          {
            subject: 'external:audit-bot',
            permissions: ['ask-docs.audit.read'],
          },
        ],
      },
    },
  }));

  beforeEach(() => {
    env.fake.setBehaviour(citeFirstBlock);
    claims[bob] = [bob, 'group:default/team-security'];
  });

  it('does not treat a service principal as an administrator', async () => {
    const answer = await ask(SECURITY, user(bob));
    expect(answer.body.status).toBe('answered');
    const services = [
      mockCredentials.service.header(),
      await pluginHeader('catalog', { service: 'plugin:catalog' }),
    ];
    for (const service of services) {
      expect((await api(`/answers/${answer.body.id}`, service)).status).toBe(
        404,
      );
      expect((await api('/ingestion', service)).status).toBe(403);
      const run = await request(env.backend.server)
        .post('/api/ask-docs/v1/ingestion/runs')
        .set('Authorization', service);
      expect(run.status).toBe(403);
    }
  });

  it('gives a service listed in askDocs.permissions.services exactly what it lists', async () => {
    const answer = await ask(SECURITY, user(bob));
    const ci = await pluginHeader('ci', { service: 'external:ci-bot' });
    expect((await api('/ingestion', ci)).status).toBe(200);
    expect((await api(`/answers/${answer.body.id}`, ci)).status).toBe(404);

    const auditBot = await pluginHeader('audit', {
      service: 'external:audit-bot',
    });
    expect((await api('/ingestion', auditBot)).status).toBe(403);
    const audited = await api(`/answers/${answer.body.id}`, auditBot);
    // A service sees no documents, so the audit view of a cited answer is fully redacted.
    expectRedacted(audited, { grounded: false });
  });

  it('gives a plugin asking on behalf of a user exactly that user’s view', async () => {
    const forBob = await pluginHeader('scaffolder', { user: bob });
    const viaPlugin = await ask(SECURITY, forBob);
    expect(viaPlugin.body.status).toBe('answered');
    expect(viaPlugin.body.sources.map((s: any) => s.entityRef)).toEqual([
      'component:default/security-handbook',
    ]);
    const stored = await env.backend.db
      .knex('ask_docs_answers')
      .where('id', viaPlugin.body.id)
      .first();
    expect(stored.user_ref).toBe(bob);
    // Bob's own answers read the same through the plugin as directly...
    const direct = await ask(SECURITY, user(bob));
    const [asBob, asPlugin] = await Promise.all([
      api(`/answers/${direct.body.id}`, user(bob)),
      api(`/answers/${direct.body.id}`, forBob),
    ]);
    expect(asPlugin.status).toBe(200);
    expect(asPlugin.body).toEqual(asBob.body);
    // The record says which plugin asked for Bob (a real on-behalf-of token's actor, as the
    // user token with an actor stands for it here); Bob's direct question names none.
    expect(asBob.body).not.toHaveProperty('askedVia');
    const actorToken = mockCredentials.user.token(bob, {
      actor: { subject: 'plugin:scaffolder' },
    });
    const viaActor = await ask(SECURITY, `Bearer ${actorToken}`);
    const record = await api(`/answers/${viaActor.body.id}`, user(bob));
    expect(record.body).toMatchObject({
      userRef: bob,
      askedVia: 'plugin:scaffolder',
    });
    const history = await api('/answers', user(bob));
    expect(
      history.body.items.find((a: any) => a.id === viaActor.body.id),
    ).toMatchObject({ askedVia: 'plugin:scaffolder' });
    // ...nobody else's answers, no administration, and no more documents than Bob has.
    const alices = await ask(SHARED, user(alice));
    expect((await api(`/answers/${alices.body.id}`, forBob)).status).toBe(404);
    expect((await api('/ingestion', forBob)).status).toBe(403);
    const forAlice = await pluginHeader('scaffolder', { user: alice });
    const denied = await ask(SECURITY, forAlice);
    expect(denied.body.status).toBe('not_in_knowledge_base');
    expect(JSON.stringify(denied.body.sources)).not.toMatch(SECRET);
  });

  it('hides from the asker what they can no longer see, in replay and history', async () => {
    const answer = await ask(SECURITY, user(bob));
    expect(answer.body.status).toBe('answered');
    const before = await api(`/answers/${answer.body.id}`, user(bob));
    expect(before.body.sources).toEqual(answer.body.sources);
    expect(before.body.redacted).toBeUndefined();

    claims[bob] = [bob]; // Bob left team-security
    const replay = await api(`/answers/${answer.body.id}`, user(bob));
    expectRedacted(replay, {
      grounded: false,
      outdatedSources: [],
      notice: REDACTED_NOTICE,
      redacted: { sources: 1, evidence: 0, corrections: 0, answerText: true },
    });
    const history = await api('/answers?limit=50', user(bob));
    const item = history.body.items.find((i: any) => i.id === answer.body.id);
    expect(item).toEqual(replay.body);
    expect(
      JSON.stringify(
        history.body.items.map((i: any) => ({ ...i, question: undefined })),
      ),
    ).not.toMatch(SECRET);

    claims[bob] = [bob, 'group:default/team-security']; // access back: the stored answer is whole
    expect(
      (await api(`/answers/${answer.body.id}`, user(bob))).body.answer,
    ).toBe(answer.body.answer);
  });

  it('drops the marker labels of visible sources when the text is withheld', async () => {
    const first = await ask(SECURITY, user(bob));
    expect(first.body.status).toBe('answered');
    // A follow-up answered from a visible page; the model names the hidden page (from the
    // thread) as a section of it, and the label is model text.
    env.fake.setBehaviour(req => {
      const [label] = citeAsLabels(req);
      return `One approving review. ${label.slice(0, -1)} › Key ceremony]`;
    });
    const followUp = await request(env.backend.server)
      .post('/api/ask-docs/v1/ask')
      .set('Authorization', user(bob))
      .send({ question: SHARED, threadId: first.body.id });
    expect(followUp.body.status).toBe('answered');
    expect(followUp.body.sources).toHaveLength(1);
    expect(followUp.body.sources[0].citations[0].label).toMatch(SECRET);

    claims[bob] = [bob]; // Bob left team-security
    for (const reader of [bob, carol]) {
      const replay = await api(`/answers/${followUp.body.id}`, user(reader));
      expect(replay.body.answer).toBe(REDACTED_ANSWER_TEXT);
      // The visible page stays a source, without the labels of the withheld text.
      expect(replay.body.sources).toHaveLength(1);
      expect(replay.body.sources[0].citations).toBeUndefined();
      expect(withoutQuestion(replay.body)).not.toMatch(SECRET);
    }
  });

  it('shows an auditor other users’ answers with only what the auditor may see', async () => {
    const secret = await ask(SECURITY, user(bob));
    const shared = await ask(SHARED, user(bob));
    expect((await api(`/answers/${secret.body.id}`, user(alice))).status).toBe(
      404,
    ); // not an auditor

    // Bob's comment quotes the answer; a reader kept from the text is kept from the comment.
    const comment = `Wrong: ${secret.body.answer}`;
    expect(comment).toMatch(SECRET);
    const rated = await request(env.backend.server)
      .post(`/api/ask-docs/v1/answers/${secret.body.id}/feedback`)
      .set('Authorization', user(bob))
      .send({ rating: 'down', comment });
    expect(rated.status).toBe(204);

    const audited = await api(`/answers/${secret.body.id}`, user(carol));
    expectRedacted(audited, { userRef: bob });
    expect(audited.body.feedback).toEqual({ rating: 'down' });
    // Bob, who may still see the documents, reads his comment back.
    expect(
      (await api(`/answers/${secret.body.id}`, user(bob))).body.feedback,
    ).toEqual({ rating: 'down', comment });
    const visible = await api(`/answers/${shared.body.id}`, user(carol));
    expect(visible.body.answer).toBe(shared.body.answer);
    expect(visible.body.sources).toEqual(shared.body.sources);
    expect(visible.body.redacted).toBeUndefined();
  });

  it("shows an auditor only the scope's entities the auditor may see", async () => {
    const scope = {
      entityRefs: [
        'component:default/Security-Handbook',
        'component:default/engineering-handbook',
      ],
    };
    const asked = await request(env.backend.server)
      .post('/api/ask-docs/v1/ask')
      .set('Authorization', user(bob))
      .send({ question: SHARED, scope });
    expect(asked.status).toBe(200);
    // The auditor sees the answer, but not the name of the entity hidden from them.
    const audited = await api(`/answers/${asked.body.id}`, user(carol));
    expect(audited.status).toBe(200);
    expect(audited.body.scope).toEqual({
      entityRefs: ['component:default/engineering-handbook'],
    });
    expect(audited.body.redacted).toMatchObject({ scope: 1, sources: 0 });
    // No part of the answer is hidden: its own notice stays.
    expect(audited.body.notice).toBe(asked.body.notice);
    expect(JSON.stringify(audited.body)).not.toMatch(/security-handbook/i);
    // The asker reads the scope as they typed it.
    const own = await api(`/answers/${asked.body.id}`, user(bob));
    expect(own.body.scope).toEqual(scope);
    expect(own.body.redacted).toBeUndefined();
  });

  it('re-checks evidence passages and spelling corrections as well', async () => {
    env.fake.setBehaviour(() => ({ status: 503 }));
    const evidence = await ask(
      'narwhalkeys ceremony witnesses vault',
      user(bob),
    );
    expect(evidence.body.status).toBe('evidence_only');
    const hidden = evidence.body.evidence.filter(
      (e: any) => e.entityRef === 'component:default/security-handbook',
    );
    expect(hidden.length).toBeGreaterThan(0);
    env.fake.setBehaviour(citeFirstBlock);
    const corrected = await ask('narwhalkyes', user(bob));
    expect(corrected.body.corrections).toEqual([
      { from: 'narwhalkyes', to: 'narwhalkeys' },
    ]);

    // A comment quoting a passage, on an answer that is evidence only (no model text).
    const quoted = `Useless: ${hidden[0].snippet}`;
    expect(quoted).toMatch(SECRET);
    const rated = await request(env.backend.server)
      .post(`/api/ask-docs/v1/answers/${evidence.body.id}/feedback`)
      .set('Authorization', user(bob))
      .send({ rating: 'down', comment: quoted });
    expect(rated.status).toBe(204);

    claims[bob] = [bob];
    const evidenceReplay = await api(`/answers/${evidence.body.id}`, user(bob));
    expect(evidenceReplay.body.feedback).toEqual({ rating: 'down' });
    expect(evidenceReplay.body.answer).toBe(evidence.body.answer); // a fixed label, not model text
    expect(evidenceReplay.body.redacted).toEqual({
      sources: 0,
      evidence: hidden.length,
      corrections: 0,
      answerText: false,
    });
    expect(evidenceReplay.body.evidence).toHaveLength(
      evidence.body.evidence.length - hidden.length,
    );
    expect(withoutQuestion(evidenceReplay.body)).not.toMatch(SECRET);
    const correctedReplay = await api(
      `/answers/${corrected.body.id}`,
      user(bob),
    );
    expect(correctedReplay.body.corrections).toEqual([]);
    expect(correctedReplay.body.redacted).toMatchObject({ corrections: 1 });
    expect(withoutQuestion(correctedReplay.body)).not.toMatch(SECRET);
  });
});
