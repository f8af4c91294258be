/*
 * Follow-up questions in a thread, over HTTP against the real backend: the earlier turns come
 * from the asker's own audit records, re-checked against the asker's current access, and help
 * retrieval and the model understand the question; citations still name only the documents
 * sent in the follow-up's own prompt.
 */
import { mockCredentials } from '@backstage/backend-test-utils';
import type { AnswerSource } from '@askdocs/plugin-ask-docs-common';
import request from 'supertest';
import { FakeBehaviour, FakeChatRequest } from '../fake-openai';
import {
  citeAsLabels,
  HandWrittenSite,
  docsComponent,
  htmlPage,
  useFakeModelBackend,
} from '../src';

const alice = 'user:default/alice';
const bob = 'user:default/bob'; // team-security: reads the restricted vault handbook

const claims: Record<string, string[]> = {
  [alice]: [alice],
  [bob]: [bob, 'group:default/team-security'],
};

const DEPLOY = 'How do I deploy the zebrafoo service?';
const ROLLBACK = 'And how do I roll that back?';
const VAULT = 'How is the narwhalvault sealed?';
const VAULT_TEXT = /tangerine|custodians/i;

const sites: HandWrittenSite[] = [
  {
    entity: docsComponent('zebrafoo', { title: 'Zebrafoo runbook' }),
    pages: {
      'index.html': htmlPage('Deploying zebrafoo', [
        [
          'Deploy',
          'Deploy the zebrafoo service with shipctl push zebrafoo from the release branch.',
        ],
      ]),
      'rollback/index.html': htmlPage('Reverting zebrafoo', [
        [
          'Rollback',
          'To roll back a zebrafoo release, run shipctl revert zebrafoo and watch the canary.',
        ],
      ]),
    },
  },
  {
    entity: docsComponent('quokkabar', { title: 'Quokkabar operations' }),
    pages: {
      'index.html': htmlPage('Quokkabar rollback', [
        [
          'Rollback',
          'Roll back quokkabar: to roll back, run quokkactl restore. Rolling back takes a minute.',
        ],
      ]),
    },
  },
  {
    entity: docsComponent('vault-handbook', {
      owner: 'group:default/team-security',
      tags: ['restricted'],
      title: 'Vault handbook',
    }),
    pages: {
      'index.html': htmlPage('Vault sealing', [
        [
          'Sealing',
          'The narwhalvault is sealed with the tangerine passphrase split among three custodians.',
        ],
      ]),
    },
  },
];

/** The whole prompt of one model request. */
const promptOf = (r: FakeChatRequest) =>
  r.messages.map(m => m.content).join('\n');

/** Answers with the first block's text, citing it as told (so the answer repeats the document). */
const echoFirstBlock: FakeBehaviour = r => {
  const [label] = citeAsLabels(r);
  // The block's last line: its paragraph, after the section heading.
  const text = /<document>\n[\s\S]*?([^\n]+)\n<\/document>/.exec(
    promptOf(r),
  )?.[1];
  return label && text ? `${text} ${label}` : 'NOT_IN_DOCUMENTS';
};

/**
 * A model that resolves "that" from the conversation: it answers from the first block sharing a
 * longer word with the earlier questions, or from the first block when there is no conversation.
 */
const resolveFromConversation: FakeBehaviour = r => {
  const prompt = promptOf(r);
  const topic = [...prompt.matchAll(/^Earlier question \d+: (.*)$/gm)].flatMap(
    m => m[1].toLowerCase().match(/[a-z]{6,}/g) ?? [],
  );
  const blocks = [
    ...prompt.matchAll(
      /^Cite as: (\[.*\])\n<document>\n([\s\S]*?)\n<\/document>/gm,
    ),
  ];
  const chosen =
    blocks.find(b => topic.some(w => b[2].toLowerCase().includes(w))) ??
    blocks[0];
  if (!chosen) return 'NOT_IN_DOCUMENTS';
  return `${chosen[2].split('\n').pop()} ${chosen[1]}`;
};

/** Sources as a reader kept from the answer's text gets them: marker labels are that text. */
function withoutLabels(sources: AnswerSource[]) {
  expect(sources.every(source => source.citations?.length)).toBe(true);
  return sources.map(({ citations: _labels, ...source }) => source);
}
describe('follow-up questions in a thread', () => {
  const ask = (question: string, who: string, threadId?: string) =>
    request(env.backend.server)
      .post('/api/ask-docs/v1/ask')
      .set('Authorization', mockCredentials.user.header(who))
      .send(threadId ? { question, threadId } : { question });
  const replay = (id: string, who: string) =>
    request(env.backend.server)
      .get(`/api/ask-docs/v1/answers/${id}`)
      .set('Authorization', mockCredentials.user.header(who));

  const env = useFakeModelBackend(() => ({ sites, claims }));

  beforeEach(() => {
    env.fake.setBehaviour(echoFirstBlock);
    claims[bob] = [bob, 'group:default/team-security'];
  });

  it('answers an elliptic follow-up from the thread and records the thread', async () => {
    env.fake.setBehaviour(resolveFromConversation);
    // Alone, the follow-up is about any rollback: nothing says which service "that" is.
    await ask(ROLLBACK, alice);
    expect(promptOf(env.fake.lastRequest!)).not.toContain('<conversation>');

    const first = await ask(DEPLOY, alice);
    expect(first.body.status).toBe('answered');
    const followUp = await ask(ROLLBACK, alice, first.body.id);
    expect(followUp.status).toBe(200);
    const prompt = promptOf(env.fake.lastRequest!);
    expect(prompt).toContain(`Earlier question 1: ${DEPLOY}`);
    expect(prompt).toContain('Earlier answer 1: Deploy the zebrafoo service');
    // The page that answers it was retrieved and sent in this turn, and is what is cited.
    expect(citeAsLabels(env.fake.lastRequest!)).toContain(
      '[Reverting zebrafoo › Rollback]',
    );
    expect(followUp.body.answer).toMatch(/shipctl revert zebrafoo/);
    expect(followUp.body.sources.map((s: any) => s.title)).toEqual([
      'Reverting zebrafoo',
    ]);
    // The earlier answer is conversation, not a document: its markers are not repeated.
    const conversation = prompt.slice(
      prompt.indexOf('<conversation>'),
      prompt.indexOf('</conversation>'),
    );
    expect(conversation).not.toMatch(/\[Deploying zebrafoo/);

    const record = await replay(followUp.body.id, alice);
    expect(record.body.threadId).toBe(first.body.id);
    expect((await replay(first.body.id, alice)).body.threadId).toBeUndefined();
    const stored = await env.backend.db
      .knex('ask_docs_answers')
      .where('id', followUp.body.id)
      .first();
    expect(stored.policy.thread).toEqual({
      turns: 1,
      redactedTurns: 0,
      searchedWithThread: true,
      // What the vector side searched for, recorded: the earlier turn may be withheld later.
      searchedText: expect.stringMatching(/zebrafoo[\s\S]*roll/i),
    });
  });

  it(`searches an elliptic follow-up with the thread though it comes with a sentence of the \
asker's situation`, async () => {
    const first = await ask(DEPLOY, alice);
    const followUp = await ask(
      `We got another incident report about our canary today. ${ROLLBACK}`,
      alice,
      first.body.id,
    );
    expect(followUp.body.sources.map((s: any) => s.title)).toEqual([
      'Reverting zebrafoo',
    ]);
    const stored = await env.backend.db
      .knex('ask_docs_answers')
      .where('id', followUp.body.id)
      .first();
    expect(stored.policy.situation).toEqual([
      'We got another incident report about our canary today.',
    ]);
    expect(stored.policy.thread).toMatchObject({ searchedWithThread: true });
  });

  it('reads at most three earlier turns, newest last', async () => {
    let threadId: string | undefined;
    const questions = [
      'How do I deploy zebrafoo?',
      'What about quokkabar rollback?',
      DEPLOY,
      VAULT,
    ];
    for (const q of questions) {
      threadId = (await ask(q, alice, threadId)).body.id;
    }
    // A follow-up that names its topic is searched alone, but still sees the conversation.
    env.fake.reset();
    await ask(
      'How do I push the zebrafoo service from the release branch?',
      alice,
      threadId,
    );
    const prompt = promptOf(env.fake.lastRequest!);
    expect(prompt).not.toContain('How do I deploy zebrafoo?');
    expect(prompt).toContain(
      'Earlier question 1: What about quokkabar rollback?',
    );
    expect(prompt).toContain(`Earlier question 3: ${VAULT}`);
    expect(prompt).not.toContain('Earlier question 4');
  });

  it("ignores another user's answer as a thread id: no text of it reaches the prompt", async () => {
    const bobs = await ask(VAULT, bob);
    expect(bobs.body.status).toBe('answered');
    expect(bobs.body.answer).toMatch(VAULT_TEXT);

    env.fake.reset();
    const followUp = await ask('And who keeps it?', alice, bobs.body.id);
    expect(followUp.status).toBe(200);
    const prompts = env.fake.requests.map(promptOf).join('\n');
    expect(prompts).not.toMatch(/narwhalvault|<conversation>/i);
    expect(prompts).not.toMatch(VAULT_TEXT);
    expect(JSON.stringify(followUp.body)).not.toMatch(VAULT_TEXT);
    // Not an oracle: the same reply shape as for an id that does not exist.
    const unknown = await ask(
      'And who keeps it?',
      alice,
      '00000000-0000-4000-8000-000000000000',
    );
    expect(unknown.status).toBe(followUp.status);
    expect(unknown.body.status).toBe(followUp.body.status);
    expect(
      (await replay(followUp.body.id, alice)).body.threadId,
    ).toBeUndefined();
  });

  it('leaves out a turn whose document the asker can no longer see', async () => {
    const first = await ask(VAULT, bob);
    expect(first.body.answer).toMatch(VAULT_TEXT);
    const before = await ask('Who are the custodians?', bob, first.body.id);
    expect(promptOf(env.fake.lastRequest!)).toMatch(
      /Earlier answer 1: The narwhalvault is sealed/,
    );

    claims[bob] = [bob]; // Bob left team-security
    env.fake.reset();
    // A follow-up the public pages answer, so the model is asked and its prompt can be read.
    const after = await ask(ROLLBACK, bob, before.body.id);
    expect(after.status).toBe(200);
    expect(env.fake.requests.length).toBe(1);
    const prompts = env.fake.requests.map(promptOf).join('\n');
    expect(prompts).not.toMatch(VAULT_TEXT);
    expect(prompts).not.toMatch(/narwhalvault|<conversation>/i);
    expect(JSON.stringify(after.body)).not.toMatch(VAULT_TEXT);
    const stored = await env.backend.db
      .knex('ask_docs_answers')
      .where('id', after.body.id)
      .first();
    expect(stored.policy.thread).toMatchObject({ turns: 0, redactedTurns: 2 });
  });

  it("withholds a follow-up's text repeating a turn the reader can no longer see", async () => {
    const vault = await ask(VAULT, bob);
    expect(vault.body.answer).toMatch(VAULT_TEXT);
    const vaultDocument = vault.body.sources[0].documentId;
    // Each follow-up is answered from public pages only, but the model repeats the oldest
    // earlier answer it was given (which prompt rule 7 forbids; models still may), so the vault
    // text is passed on from turn to turn, further back than the three turns a prompt holds.
    env.fake.setBehaviour(r => {
      const earlier = /^Earlier answer 1: (.*)$/m.exec(promptOf(r))?.[1];
      return `${earlier ?? ''} Push it with shipctl. ${citeAsLabels(r)[0]}`;
    });
    const followUps: request.Response[] = [];
    let threadId = vault.body.id;
    for (let i = 0; i < 5; i++) {
      const next = await ask(
        'How do I push the zebrafoo service from the release branch?',
        bob,
        threadId,
      );
      expect(next.body.status).toBe('answered');
      expect(next.body.answer).toMatch(VAULT_TEXT);
      followUps.push(next);
      threadId = next.body.id;
    }
    for (const f of followUps) {
      const stored = await env.backend.db
        .knex('ask_docs_answers')
        .where('id', f.body.id)
        .first();
      // Nothing of the vault was sent or cited in the follow-ups themselves.
      expect(stored.retrieved.map((c: any) => c.documentId)).not.toContain(
        vaultDocument,
      );
      expect(f.body.sources.map((s: any) => s.documentId)).not.toContain(
        vaultDocument,
      );
      // The control: while Bob may read the vault, his replay keeps the text.
      expect((await replay(f.body.id, bob)).body.answer).toMatch(VAULT_TEXT);
    }

    claims[bob] = [bob]; // Bob left team-security
    // The fifth follow-up's prompt held the second to fourth, not the vault turn: withheld too.
    for (const f of followUps) {
      const record = await replay(f.body.id, bob);
      expect(record.status).toBe(200);
      expect(record.body.answer).not.toMatch(VAULT_TEXT);
      expect(record.body.redacted).toMatchObject({ answerText: true });
      expect(record.body.grounded).toBe(false);
      // Its own public sources stay listed, without the labels of its withheld text.
      expect(record.body.sources).toEqual(withoutLabels(f.body.sources));
    }
    const history = await request(env.backend.server)
      .get('/api/ask-docs/v1/answers')
      .set('Authorization', mockCredentials.user.header(bob));
    expect(history.status).toBe(200);
    expect(history.body.items.length).toBeGreaterThanOrEqual(6);
    // (the questions are Bob's own words, kept as he asked them)
    const withoutQuestions = history.body.items.map(
      ({ question, ...rest }: any) => rest,
    );
    expect(JSON.stringify(withoutQuestions)).not.toMatch(VAULT_TEXT);

    // Nor does a later turn's prompt carry it on; and what Bob asks from now on, drawing on
    // nothing hidden, keeps its text.
    env.fake.reset();
    env.fake.setBehaviour(echoFirstBlock);
    const after = await ask(ROLLBACK, bob, threadId);
    expect(env.fake.requests.map(promptOf).join('\n')).not.toMatch(VAULT_TEXT);
    const stored = await env.backend.db
      .knex('ask_docs_answers')
      .where('id', after.body.id)
      .first();
    expect(stored.policy.thread).toMatchObject({
      turns: 0,
      redactedTurns: 3,
    });
    const last = await ask('How do I deploy zebrafoo?', bob, after.body.id);
    expect(promptOf(env.fake.lastRequest!)).toContain(
      `Earlier answer 1: ${after.body.answer.split(' [')[0]}`,
    );
    for (const answer of [after, last]) {
      const record = await replay(answer.body.id, bob);
      expect(record.body.redacted).toBeUndefined();
      expect(record.body.answer).toBe(answer.body.answer);
    }
  });

  it("keeps a follow-up's text after its earlier turn expired (documents recorded)", async () => {
    const first = await ask(DEPLOY, alice);
    const followUp = await ask(
      'How do I push the zebrafoo service from the release branch?',
      alice,
      first.body.id,
    );
    expect(followUp.body.status).toBe('answered');
    const row = () =>
      env.backend.db.knex('ask_docs_answers').where('id', followUp.body.id);
    expect((await row().first()).sources.threadDocumentIds).toEqual(
      first.body.sources.map((s: any) => s.documentId),
    );
    // Answer retention removed the earlier turn (it is older).
    await env.backend.db
      .knex('ask_docs_answers')
      .where('id', first.body.id)
      .delete();
    const kept = await replay(followUp.body.id, alice);
    expect(kept.body.redacted).toBeUndefined();
    expect(kept.body.answer).toBe(followUp.body.answer);
    // A follow-up recorded before the thread's documents were cannot be checked: withheld.
    const { threadDocumentIds, ...legacy } = (await row().first()).sources;
    await row().update({ sources: JSON.stringify(legacy) });
    const record = await replay(followUp.body.id, alice);
    expect(record.body.redacted).toMatchObject({ answerText: true });
    expect(record.body.answer).not.toBe(followUp.body.answer);
    expect(record.body.sources).toEqual(withoutLabels(followUp.body.sources));
  });

  it('cites only documents sent in the follow-up itself', async () => {
    const first = await ask('How do I roll back quokkabar?', alice);
    const earlierLabels = citeAsLabels(env.fake.lastRequest!);
    expect(earlierLabels.some(l => /Quokkabar/.test(l))).toBe(true);

    // The model tries to cite the earlier turn's documents as well as this turn's.
    let sentNow: string[] = [];
    env.fake.setBehaviour(r => {
      sentNow = citeAsLabels(r);
      return `Push it with shipctl. ${
        sentNow[0]
      } Restore it too. ${earlierLabels.join(' ')}`;
    });
    const followUp = await ask(
      'How do I push the zebrafoo service from the release branch?',
      alice,
      first.body.id,
    );
    expect(followUp.body.status).toBe('answered');
    const stale = earlierLabels.filter(l => !sentNow.includes(l));
    expect(stale.length).toBeGreaterThan(0);
    const sentTitles = sentNow.map(l => l.slice(1, -1).split(' › ')[0]);
    for (const source of followUp.body.sources) {
      expect(sentTitles).toContain(source.title);
    }
    expect(followUp.body.sources.map((s: any) => s.title)).not.toContain(
      'Quokkabar rollback',
    );
    const stored = await env.backend.db
      .knex('ask_docs_answers')
      .where('id', followUp.body.id)
      .first();
    expect(stored.policy.unmatchedCitations.length).toBeGreaterThan(0);
    expect(stored.policy.thread).toMatchObject({
      turns: 1,
      searchedWithThread: false,
    });
  });
});
