/*
 * Retention of ask_docs_chunk_versions (askDocs.retention.chunkVersionsDays): superseded
 * versions older than the window go, unless an answer still kept for audit retrieved them;
 * a version not marked superseded is never deleted, however old. (Since migration 0008 a current
 * text lives in its chunk row only; rows with superseded_at null are those written before.)
 */
import { randomUUID } from 'crypto';
import { useTestDatabase } from '../testUtils/testDatabase';
import { AnswerWrite } from './AskDocsStore';
import { DatabaseAskDocsStore } from './DatabaseAskDocsStore';

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

describe('chunk version retention', () => {
  const db = useTestDatabase();
  let store: DatabaseAskDocsStore;

  beforeAll(() => {
    store = new DatabaseAskDocsStore(db.knex);
  });

  const version = (
    chunkId: string,
    contentHash: string,
    supersededAt: Date | null,
  ) => ({
    chunk_id: chunkId,
    content_hash: contentHash,
    revision: 'r1',
    document_id: 'doc-1',
    entity_ref: 'component:default/x',
    title: 'X',
    section_path: 'X',
    anchor: '',
    text: `text ${chunkId} ${contentHash}`,
    first_seen: daysAgo(400),
    superseded_at: supersededAt,
  });

  async function answer(
    createdAt: Date,
    retrieved: Array<{ chunkId: string; contentHash: string }>,
  ) {
    const a: AnswerWrite = {
      id: randomUUID(),
      userRef: 'user:default/alice',
      question: 'q',
      scope: {},
      status: 'answered',
      grounded: true,
      policy: {},
      retrieved: retrieved.map((r, i) => ({
        ...r,
        documentId: 'doc-1',
        title: 'X',
        sectionPath: 'X',
        revision: 'r1',
        rank: i + 1,
        scores: {},
        sent: true,
      })),
      embeddingModel: 'm',
      answer: 'a',
      sources: [],
      evidence: [],
    };
    await store.insertAnswer(a);
    await db
      .knex('ask_docs_answers')
      .where('id', a.id)
      .update({ created_at: createdAt });
  }

  it('deletes old unreferenced versions, keeps referenced, recent and current ones', async () => {
    await db
      .knex('ask_docs_chunk_versions')
      .insert([
        version('c1', 'old-unreferenced', daysAgo(120)),
        version('c1', 'old-cited', daysAgo(120)),
        version('c1', 'old-cited-by-expired-answer', daysAgo(120)),
        version('c1', 'recent', daysAgo(10)),
        version('c1', 'current', null),
        version('c2', 'current-never-changed', null),
      ]);
    await answer(daysAgo(30), [{ chunkId: 'c1', contentHash: 'old-cited' }]);
    // Outside the answer retention window: deleted by the answer retention, no reason to keep.
    await answer(daysAgo(500), [
      { chunkId: 'c1', contentHash: 'old-cited-by-expired-answer' },
    ]);
    // Same hash under another chunk id does not protect c1's version.
    await answer(daysAgo(5), [
      { chunkId: 'c9', contentHash: 'old-unreferenced' },
    ]);

    const deleted = await store.deleteChunkVersions({
      supersededBefore: daysAgo(90),
      keepAnswersSince: daysAgo(365),
    });

    const left = await db
      .knex('ask_docs_chunk_versions')
      .orderBy(['chunk_id', 'content_hash'])
      .select('chunk_id', 'content_hash');
    expect(left.map(r => `${r.chunk_id}/${r.content_hash}`)).toEqual([
      'c1/current',
      'c1/old-cited',
      'c1/recent',
      'c2/current-never-changed',
    ]);
    expect(deleted).toBe(2);
    // Running again finds nothing more to delete.
    expect(
      await store.deleteChunkVersions({
        supersededBefore: daysAgo(90),
        keepAnswersSince: daysAgo(365),
      }),
    ).toBe(0);
  });
});
