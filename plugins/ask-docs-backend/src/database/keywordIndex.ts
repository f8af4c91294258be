import { Knex } from 'knex';
import type { TermCount } from '../language/types';
import {
  decodeKeyIds,
  decodePostings,
  encodeKeyIds,
  encodePostings,
  Posting,
} from './postingList';

/**
 * Writes of the keyword index (migration 0006): the key dictionary, the posting lists per (key,
 * entity) and each chunk's key list. Everything that indexes chunks (the store, test fixtures,
 * the benchmark's bulk loader) goes through `rewriteChunkKeys`.
 */

/** A chunk whose keys change: `terms` replaces its postings; null takes it out of every list. */
export interface ChunkKeysChange {
  chunkId: string;
  terms: TermCount[] | null;
}

/** First key of `pg_advisory_xact_lock(int4, int4)`: "ASKD"; the second is the entity number. */
const POSTINGS_LOCK = 0x41534b44;
const BATCH = 5000;

const keyName = (kind: string, term: string) => `${kind}\u0000${term}`;

/** Key ids of (kind, term) keys, adding the missing ones to the dictionary. */
async function resolveKeyIds(
  tx: Knex.Transaction,
  terms: TermCount[],
): Promise<Map<string, number>> {
  const keys = Array.from(
    new Map(terms.map(t => [keyName(t.kind, t.term), t])).values(),
  ).sort((a, b) =>
    a.kind === b.kind ? (a.term < b.term ? -1 : 1) : a.kind < b.kind ? -1 : 1,
  );
  const ids = new Map<string, number>();
  const read = async (slice: TermCount[]) => {
    const rows = await tx.raw(
      `SELECT k.key_id, k.kind, k.term FROM ask_docs_keys k
         JOIN unnest(?::text[], ?::text[]) AS q(kind, term)
           ON k.kind = q.kind AND k.term = q.term`,
      [slice.map(k => k.kind), slice.map(k => k.term)],
    );
    for (const r of rows.rows) ids.set(keyName(r.kind, r.term), r.key_id);
  };
  for (let i = 0; i < keys.length; i += BATCH) {
    // Known keys are read, not inserted: INSERT ... ON CONFLICT takes a key_id (int4) from the
    // identity for every row it tries, and a re-analysis would try every key of every chunk.
    await read(keys.slice(i, i + BATCH));
    const missing = keys
      .slice(i, i + BATCH)
      .filter(k => !ids.has(keyName(k.kind, k.term)));
    if (missing.length === 0) continue;
    // In key order, so concurrent writers of new keys wait on each other in one order.
    const inserted = await tx.raw(
      `INSERT INTO ask_docs_keys (kind, term)
       SELECT * FROM unnest(?::text[], ?::text[]) ORDER BY 1, 2
       ON CONFLICT DO NOTHING RETURNING key_id, kind, term`,
      [missing.map(k => k.kind), missing.map(k => k.term)],
    );
    for (const r of inserted.rows) ids.set(keyName(r.kind, r.term), r.key_id);
    // Those a concurrent writer inserted first (committed once our insert got past them).
    const raced = missing.filter(k => !ids.has(keyName(k.kind, k.term)));
    if (raced.length > 0) await read(raced);
  }
  return ids;
}

/** A chunk's keys as ids with their tf, and the key list its row keeps (`key_ids`). */
export interface PreparedKeys {
  tfs: Map<number, number>;
  list: Buffer;
}

/**
 * Key ids for the chunks' terms (new keys join the dictionary), and each chunk's key list, so
 * the chunk row can be written with its `key_ids` in the same statement as its text.
 */
export async function prepareChunkKeys(
  tx: Knex.Transaction,
  chunks: Array<{ chunkId: string; terms: TermCount[] }>,
): Promise<Map<string, PreparedKeys>> {
  const keyIds = await resolveKeyIds(
    tx,
    chunks.flatMap(c => c.terms),
  );
  const prepared = new Map<string, PreparedKeys>();
  for (const c of chunks) {
    const tfs = new Map<number, number>();
    for (const t of c.terms) {
      const key = keyIds.get(keyName(t.kind, t.term))!;
      tfs.set(key, Math.max(tfs.get(key) ?? 0, t.tf));
    }
    prepared.set(c.chunkId, { tfs, list: encodeKeyIds(tfs.keys()) });
  }
  return prepared;
}

/** A chunk moving in the posting lists: out of its `previous` keys' lists, into `next`'s. */
export interface PostingsChange {
  chunkId: string;
  previous: number[];
  /** Key id → tf; null takes the chunk out of every list (before its row is deleted). */
  next: Map<number, number> | null;
}

/**
 * Moves chunks in their entities' posting lists (tf with the chunk row's term_count). Call it
 * after the chunk rows are written. Writers of one entity are serialised by a
 * transaction-scoped advisory lock on its number, taken in entity order.
 */
export async function rewritePostings(
  tx: Knex.Transaction,
  changes: PostingsChange[],
): Promise<void> {
  const byId = new Map(changes.map(c => [c.chunkId, c]));
  if (byId.size === 0) return;
  const rows: Array<{
    chunk_id: string;
    chunk_no: number;
    entity_no: number;
    term_count: number;
  }> = [];
  const ids = [...byId.keys()];
  for (let i = 0; i < ids.length; i += BATCH) {
    rows.push(
      ...(await tx('ask_docs_chunks as c')
        .join('ask_docs_entities as e', 'e.entity_ref', 'c.entity_ref')
        .whereIn('c.chunk_id', ids.slice(i, i + BATCH))
        .select('c.chunk_id', 'c.chunk_no', 'c.term_count', 'e.entity_no')),
    );
  }
  const byEntity = new Map<number, typeof rows>();
  for (const r of rows) {
    const list = byEntity.get(r.entity_no) ?? [];
    list.push(r);
    byEntity.set(r.entity_no, list);
  }
  for (const entityNo of [...byEntity.keys()].sort((a, b) => a - b)) {
    await tx.raw('SELECT pg_advisory_xact_lock(?, ?)', [
      POSTINGS_LOCK,
      entityNo,
    ]);
    const removed = new Set<number>();
    const touched = new Set<number>();
    const added = new Map<number, Posting[]>();
    for (const r of byEntity.get(entityNo)!) {
      const change = byId.get(r.chunk_id)!;
      removed.add(r.chunk_no);
      change.previous.forEach(k => touched.add(k));
      for (const [key, tf] of change.next ?? []) {
        touched.add(key);
        const list = added.get(key) ?? [];
        list.push({ chunkNo: r.chunk_no, tf, length: r.term_count });
        added.set(key, list);
      }
    }
    await rewriteLists(tx, entityNo, [...touched], removed, added);
  }
}

/**
 * rewritePostings for chunks whose rows are already written: their previous keys are read from
 * the rows, and the new key lists written back to them. For deletions (before the rows go), test
 * fixtures and bulk loads that did not prepare the keys.
 */
export async function rewriteChunkKeys(
  tx: Knex.Transaction,
  changes: ChunkKeysChange[],
): Promise<void> {
  if (changes.length === 0) return;
  const previous = new Map<string, number[]>();
  const ids = changes.map(c => c.chunkId);
  for (let i = 0; i < ids.length; i += BATCH) {
    for (const r of await tx('ask_docs_chunks')
      .whereIn('chunk_id', ids.slice(i, i + BATCH))
      .select('chunk_id', 'key_ids')) {
      previous.set(r.chunk_id, decodeKeyIds(r.key_ids));
    }
  }
  const prepared = await prepareChunkKeys(
    tx,
    changes.flatMap(c =>
      c.terms ? [{ chunkId: c.chunkId, terms: c.terms }] : [],
    ),
  );
  await rewritePostings(
    tx,
    changes.map(c => ({
      chunkId: c.chunkId,
      previous: previous.get(c.chunkId) ?? [],
      next: prepared.get(c.chunkId)?.tfs ?? null,
    })),
  );
  const lists = [...prepared.entries()];
  for (let i = 0; i < lists.length; i += BATCH) {
    const slice = lists.slice(i, i + BATCH);
    await tx.raw(
      `UPDATE ask_docs_chunks c SET key_ids = x.ids
         FROM unnest(?::text[], ?::bytea[]) AS x(id, ids) WHERE c.chunk_id = x.id`,
      [slice.map(([id]) => id), slice.map(([, p]) => p.list)],
    );
  }
}

/** Reads, edits and writes back one entity's lists of the touched keys. */
async function rewriteLists(
  tx: Knex.Transaction,
  entityNo: number,
  touched: number[],
  removed: Set<number>,
  added: Map<number, Posting[]>,
) {
  const sorted = touched.sort((a, b) => a - b);
  for (let i = 0; i < sorted.length; i += BATCH) {
    const keys = sorted.slice(i, i + BATCH);
    const current = new Map<number, Buffer>();
    const rows = await tx.raw(
      `SELECT key_id, postings FROM ask_docs_postings
        WHERE entity_no = ? AND key_id = ANY(?::int[])`,
      [entityNo, keys],
    );
    for (const r of rows.rows) current.set(r.key_id, r.postings);
    const write: Array<[number, number, Buffer]> = [];
    const drop: number[] = [];
    for (const key of keys) {
      const old = current.get(key);
      const kept = old
        ? decodePostings(old).filter(p => !removed.has(p.chunkNo))
        : [];
      const list = kept.concat(added.get(key) ?? []);
      if (list.length > 0) write.push([key, list.length, encodePostings(list)]);
      else if (old) drop.push(key);
    }
    if (write.length > 0) {
      await tx.raw(
        `INSERT INTO ask_docs_postings (key_id, entity_no, df, postings)
         SELECT x.key_id, ?, x.df, x.postings
           FROM unnest(?::int[], ?::int[], ?::bytea[]) AS x(key_id, df, postings)
         ON CONFLICT (key_id, entity_no)
         DO UPDATE SET df = excluded.df, postings = excluded.postings`,
        [
          entityNo,
          write.map(w => w[0]),
          write.map(w => w[1]),
          write.map(w => w[2]),
        ],
      );
    }
    if (drop.length > 0) {
      await tx.raw(
        'DELETE FROM ask_docs_postings WHERE entity_no = ? AND key_id = ANY(?::int[])',
        [entityNo, drop],
      );
    }
  }
}

/**
 * The keys a chunk is indexed under, read back from its posting lists (tests and diagnostics;
 * retrieval reads lists by key). A key of the chunk's key list whose posting list lacks the
 * chunk is reported with tf 0, so an inconsistency shows instead of hiding.
 */
export async function indexedChunkKeys(
  knex: Knex,
  chunkId: string,
): Promise<TermCount[]> {
  const chunk = await knex('ask_docs_chunks as c')
    .join('ask_docs_entities as e', 'e.entity_ref', 'c.entity_ref')
    .where('c.chunk_id', chunkId)
    .first('c.chunk_no', 'c.key_ids', 'e.entity_no');
  if (!chunk) return [];
  const rows = await knex.raw(
    `SELECT k.kind, k.term, p.postings FROM ask_docs_keys k
       LEFT JOIN ask_docs_postings p ON p.key_id = k.key_id AND p.entity_no = ?
      WHERE k.key_id = ANY(?::int[]) ORDER BY k.kind, k.term`,
    [chunk.entity_no, decodeKeyIds(chunk.key_ids)],
  );
  return rows.rows.map(
    (r: {
      kind: TermCount['kind'];
      term: string;
      postings: Buffer | null;
    }) => ({
      kind: r.kind,
      term: r.term,
      tf: r.postings
        ? decodePostings(r.postings).find(p => p.chunkNo === chunk.chunk_no)
            ?.tf ?? 0
        : 0,
    }),
  );
}
