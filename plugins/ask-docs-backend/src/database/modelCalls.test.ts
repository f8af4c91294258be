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
      secondsAgo: number;
      status?: string;
      modelError?: string;
      rawOutput?: string;
    },
  ) {
    await db.knex('ask_docs_answers').insert({
      id: randomUUID(),
      user_ref: userRef,
      question: 'q',
      status: o.status ?? 'answered',
      grounded: false,
      policy: JSON.stringify({
        modelError: o.modelError
          ? { reason: o.modelError, message: 'x' }
          : null,
      }),
      retrieved: '[]',
      embedding_model: 'm',
      llm_model: o.llmModel ?? null,
      answer: '',
      raw_output: o.rawOutput ?? null,
      sources: '{}',
      created_at: db.knex.raw('now() - make_interval(secs => ?)', [
        o.secondsAgo,
      ]),
    });
  }

  it("counts the principal's model calls in the window that may have cost something", async () => {
    const store = new DatabaseAskDocsStore(db.knex);
    const user = 'user:default/a';
    const call = (secondsAgo: number, extra: object = {}) =>
      answer(user, { llmModel: 'gpt', secondsAgo, ...extra });
    // Counted: an answer, an abandoned ask, and failures the model may have generated text for.
    await call(10);
    await call(200, { status: 'abandoned' });
    await call(300, { status: 'evidence_only', modelError: 'timeout' });
    await call(50, { status: 'evidence_only', modelError: 'incomplete' });
    // A stream that sent text before its connection dropped was generated (and billed).
    await call(60, {
      status: 'evidence_only',
      modelError: 'connection',
      rawOutput: 'Run deploy',
    });
    // Not counted: calls that generated nothing, an ask without a model call, one outside the
    // window, another user's.
    for (const modelError of [
      'rejected',
      'context_too_large',
      'rate_limited',
      'server_error',
      'connection',
      'circuit_open',
    ])
      await call(5, { status: 'evidence_only', modelError });
    await answer(user, { secondsAgo: 5 });
    await call(4000);
    await answer('user:default/b', { llmModel: 'gpt', secondsAgo: 10 });

    await expect(store.countModelCalls(user, 3600)).resolves.toBe(5);
    // The window slides: only the calls of the last 100 seconds (10, 50 and 60 s ago).
    await expect(store.countModelCalls(user, 100)).resolves.toBe(3);
    await expect(store.countModelCalls('user:default/b', 3600)).resolves.toBe(
      1,
    );
    await expect(store.countModelCalls('user:default/c', 3600)).resolves.toBe(
      0,
    );
  });
});
