import { randomUUID } from 'crypto';
import { useTestDatabase } from '../testUtils/testDatabase';
import { DatabaseAskDocsStore } from './DatabaseAskDocsStore';

describe('DatabaseAskDocsStore.countModelCalls', () => {
  const db = useTestDatabase();

  /** An answer record as insertAnswer writes it, `secondsAgo` by the database's clock. */
  async function answer(
    userRef: string,
    o: {
      llmModel?: string;
      secondsAgo?: number;
      status?: string;
      reason?: string;
    } = {},
  ) {
    await db.knex('ask_docs_answers').insert({
      id: randomUUID(),
      user_ref: userRef,
      question: 'q',
      status: o.status ?? 'answered',
      grounded: false,
      policy: '{}',
      retrieved: '[]',
      embedding_model: 'm',
      llm_model: o.llmModel ?? null,
      answer: '',
      sources: JSON.stringify({ sources: [], reason: o.reason ?? null }),
      created_at: db.knex.raw('now() - make_interval(secs => ?)', [
        o.secondsAgo ?? 0,
      ]),
    });
  }

  it("counts the principal's model calls inside the window, abandoned ones too", async () => {
    const store = new DatabaseAskDocsStore(db.knex);
    await answer('user:default/a', { llmModel: 'gpt', secondsAgo: 10 });
    await answer('user:default/a', {
      llmModel: 'gpt',
      secondsAgo: 20,
      status: 'abandoned',
    });
    // The model answered, though its text was not shown: a call.
    await answer('user:default/a', {
      llmModel: 'gpt',
      secondsAgo: 30,
      status: 'evidence_only',
      reason: 'uncited_answer',
    });
    // Not counted: no model call (refused, or no model), a call that failed, one outside the
    // window, another user's.
    await answer('user:default/a', {
      llmModel: 'gpt',
      secondsAgo: 5,
      status: 'evidence_only',
      reason: 'model_failed',
    });
    await answer('user:default/a', { secondsAgo: 5 });
    await answer('user:default/a', { llmModel: 'gpt', secondsAgo: 4000 });
    await answer('user:default/b', { llmModel: 'gpt', secondsAgo: 10 });

    await expect(store.countModelCalls('user:default/a', 3600)).resolves.toBe(
      3,
    );
    await expect(store.countModelCalls('user:default/a', 15)).resolves.toBe(1);
    await expect(store.countModelCalls('user:default/b', 3600)).resolves.toBe(
      1,
    );
    await expect(store.countModelCalls('user:default/c', 3600)).resolves.toBe(
      0,
    );
  });
});
