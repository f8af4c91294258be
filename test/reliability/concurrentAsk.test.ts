/*
 * Bounded concurrent load on loopback: 50 asks, 10 at a time, by two users interleaved, against
 * the real backend with a fake model that answers after a short delay and fails ~30% of the time
 * (seeded). Every response must be a well-formed 200, visibility must hold per user under
 * concurrency, and a failed model call must give evidence, never an error. No timing assertions.
 */
import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import { FakeOpenAI, startFakeOpenAI } from '../fake-openai';
import { seededRandom } from '../../plugins/ask-docs-backend/src/testUtils/seededRandom';
import {
  AskBackend,
  citeFirstBlock,
  docsComponent,
  engineeringHandbookSite,
  securityHandbookSite,
  htmlPage,
  startAskBackend,
} from '../src';

const alice = 'user:default/alice';
const bob = 'user:default/bob';

const sites = [
  {
    entity: docsComponent('payments-handbook', {
      owner: 'group:default/team-payments',
      tags: ['restricted'],
      title: 'Payments handbook',
    }),
    pages: {
      'index.html': htmlPage('Settlement runbook', [
        [
          'Settlement',
          'The quokkasettle batch settles card payments with the acquirer every night at two.',
        ],
        [
          'Reconciliation',
          'Mismatched quokkasettle totals are reconciled by the payments team the next morning.',
        ],
      ]),
    },
  },
  securityHandbookSite(),
  engineeringHandbookSite(),
];

const questions = {
  payments: {
    text: 'When does the quokkasettle batch settle payments?',
    entityRef: 'component:default/payments-handbook',
    marker: /quokkasettle/i,
  },
  security: {
    text: 'How often does the narwhalkeys ceremony rotate keys?',
    entityRef: 'component:default/security-handbook',
    marker: /narwhalkeys/i,
  },
  shared: {
    text: 'How many approving reviews does a change need before merge?',
    entityRef: 'component:default/engineering-handbook',
    marker: /approving review/i,
  },
};
const visibleTo: Record<string, string[]> = {
  [alice]: [questions.payments.entityRef, questions.shared.entityRef],
  [bob]: [questions.security.entityRef, questions.shared.entityRef],
};

describe('concurrent asks on loopback', () => {
  let fake: FakeOpenAI;
  let backend: AskBackend;
  const replies = { ok: 0, failed: 0 };

  beforeAll(async () => {
    const random = seededRandom(4242);
    fake = await startFakeOpenAI({
      behaviour: async req => {
        await new Promise(r => setTimeout(r, 10 + Math.floor(random() * 40)));
        if (random() < 0.3) {
          replies.failed += 1;
          return { status: 500 };
        }
        replies.ok += 1;
        return citeFirstBlock(req);
      },
    });
    backend = await startAskBackend({
      sites,
      claims: {
        [alice]: [alice, 'group:default/team-payments'],
        [bob]: [bob, 'group:default/team-security'],
      },
      llmBaseUrl: fake.baseUrl,
    });
    const run = await backend.ingest();
    expect(run.status).toBe('succeeded');
    expect(run.errors).toEqual([]);
  });

  afterAll(async () => {
    await backend?.stop();
    await fake?.stop();
  });

  it(`answers 50 interleaved asks, 10 at a time, each well-formed and within its asker’s \
visibility`, async () => {
    // Alternating users; each asks about their own restricted docs, the other's, and shared docs.
    const plan = Array.from({ length: 50 }, (_, i) => {
      const user = i % 2 === 0 ? alice : bob;
      const topic = (['payments', 'security', 'shared'] as const)[
        Math.floor(i / 2) % 3
      ];
      return { i, user, topic, question: questions[topic] };
    });
    const results: Array<{
      plan: (typeof plan)[number];
      res: request.Response;
    }> = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < plan.length) {
          const p = plan[next++];
          const res = await request(backend.server)
            .post('/api/ask-docs/v1/ask')
            .set('Authorization', mockCredentials.user.header(p.user))
            .send({ question: p.question.text });
          results.push({ plan: p, res });
        }
      }),
    );
    expect(results).toHaveLength(50);

    const statuses: Record<string, number> = {};
    for (const { plan: p, res } of results) {
      const where = `ask #${p.i} by ${p.user} about ${p.topic}`;
      expect({ where, status: res.status }).toEqual({ where, status: 200 });
      const body = res.body;
      statuses[body.status] = (statuses[body.status] ?? 0) + 1;
      expect(body).toEqual(
        expect.objectContaining({
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          status: expect.stringMatching(
            /^(answered|evidence_only|not_in_knowledge_base)$/,
          ),
          grounded: expect.any(Boolean),
          answer: expect.any(String),
          sources: expect.any(Array),
          evidence: expect.any(Array),
          embeddingModel: expect.any(String),
          createdAt: expect.any(String),
        }),
      );
      // Only the asker's documents, in every part of the response.
      const refs = [...body.sources, ...body.evidence].map(
        (s: any) => s.entityRef,
      );
      expect({
        where,
        hidden: refs.filter((r: string) => !visibleTo[p.user].includes(r)),
      }).toEqual({ where, hidden: [] });
      const hiddenMarkers = Object.values(questions)
        .filter(q => !visibleTo[p.user].includes(q.entityRef))
        .map(q => q.marker);
      const answerParts = JSON.stringify([
        body.sources,
        body.evidence,
        body.corrections ?? [],
        body.answer,
      ]);
      expect({
        where,
        leaked: hiddenMarkers.filter(m => m.test(answerParts)).map(String),
      }).toEqual({ where, leaked: [] });

      const visible = visibleTo[p.user].includes(p.question.entityRef);
      if (!visible) {
        expect({
          where,
          status: body.status,
          sources: body.sources,
          evidence: body.evidence,
        }).toEqual({
          where,
          status: 'not_in_knowledge_base',
          sources: [],
          evidence: [],
        });
      } else if (body.status === 'answered') {
        expect(body.grounded).toBe(true);
        expect(body.sources.map((s: any) => s.entityRef)).toEqual([
          p.question.entityRef,
        ]);
        expect(body.evidence).toEqual([]);
      } else {
        // The model failed: the evidence is returned, labelled, instead of an error.
        expect({ where, status: body.status }).toEqual({
          where,
          status: 'evidence_only',
        });
        expect(body.grounded).toBe(false);
        expect(body.sources).toEqual([]);
        expect(body.notice).toMatch(/not an answer/i);
        expect(body.evidence.map((e: any) => e.entityRef)).toContain(
          p.question.entityRef,
        );
      }
    }

    // Every model failure became exactly one evidence-only response, every success an answer,
    // and asks about invisible documents never reached the model.
    const visibleAsks = results.filter(r =>
      visibleTo[r.plan.user].includes(r.plan.question.entityRef),
    ).length;
    expect(replies.failed + replies.ok).toBe(visibleAsks);
    expect(replies.failed).toBeGreaterThan(0);
    expect(statuses.evidence_only ?? 0).toBe(replies.failed);
    expect(statuses.answered ?? 0).toBe(replies.ok);
    expect(statuses.not_in_knowledge_base ?? 0).toBe(50 - visibleAsks);
    // No prompt sent to the model held the other user's restricted text.
    expect(fake.requests.length).toBe(visibleAsks);
    for (const req of fake.requests) {
      const prompt = JSON.stringify(req.messages);
      const asked = Object.values(questions).find(q => prompt.includes(q.text));
      expect(asked).toBeDefined();
      const other =
        asked === questions.payments
          ? [questions.security]
          : asked === questions.security
          ? [questions.payments]
          : [];
      expect({
        asked: asked!.text,
        leaked: other.filter(q => q.marker.test(prompt)).map(q => q.entityRef),
      }).toEqual({ asked: asked!.text, leaked: [] });
      if (asked === questions.shared)
        expect(
          questions.payments.marker.test(prompt) &&
            questions.security.marker.test(prompt),
        ).toBe(false);
    }

    // Each ask was audited once, under its own asker.
    const rows = await backend.db
      .knex('ask_docs_answers')
      .whereIn(
        'id',
        results.map(r => r.res.body.id),
      )
      .select('id', 'user_ref');
    expect(rows).toHaveLength(50);
    const userOf = new Map(results.map(r => [r.res.body.id, r.plan.user]));
    expect(rows.filter(r => userOf.get(r.id) !== r.user_ref)).toEqual([]);
  });
});
