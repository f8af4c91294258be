import {
  entityRowOf,
  pageWriteOf,
  TEST_MODEL,
} from '../testUtils/indexFixtures';
import { useTestDatabase } from '../testUtils/testDatabase';
import { PageWrite } from './AskDocsStore';
import { chunkColumns } from './chunkColumns';
import { DatabaseAskDocsStore } from './DatabaseAskDocsStore';
import { indexedChunkKeys, prepareChunkKeys } from './keywordIndex';

/*
 * Key, chunk and entity numbers are int4 identities (migration 0006), and INSERT ... ON CONFLICT
 * takes a value for every row it tries, existing ones too. Writing again what is already stored
 * (a rebuilt site, a re-analysis, the next run's entity rows) must take none, or the numbers
 * run out at 2^31 and every page write fails; new rows take exactly one each.
 */

const MODEL = TEST_MODEL;

const entity = (name: string) => entityRowOf(`component:default/${name}`);

/** A page of `texts`, one chunk each, analysed as words (surface and lemma keys). */
const page = (
  entityRef: string,
  path: string,
  texts: string[],
  options: { signature?: string } = {},
): PageWrite =>
  pageWriteOf(entityRef, path, texts, {
    analysisSignature: options.signature ?? 'a1',
  });

/** Ten pages of three chunks over a shared vocabulary, as a site of one entity. */
const site = (entityRef: string, extra: string[] = []) =>
  Array.from({ length: 10 }, (_, p) =>
    page(entityRef, `p${p}`, [
      `deploy release rollback page${p} alpha`,
      `shared words beta gamma page${p} section${p % 3}`,
      ...(p === 0 ? extra : []),
      `closing notes page${p}`,
    ]),
  );

describe('identity sequences', () => {
  const db = useTestDatabase({ timeoutMs: 120_000 });
  let store: DatabaseAskDocsStore;
  beforeAll(() => {
    store = new DatabaseAskDocsStore(db.knex);
  });

  /** The last value each identity handed out (0 before the first), and the rows stored. */
  async function state() {
    const last = (table: string, column: string) =>
      `coalesce(pg_sequence_last_value(pg_get_serial_sequence('${table}', '${column}')` +
      `::regclass), 0)::int AS ${column}`;
    const { rows } = await db.knex.raw(
      `SELECT (SELECT count(*) FROM ask_docs_keys)::int AS keys,
              (SELECT count(*) FROM ask_docs_chunks)::int AS chunks,
              (SELECT count(*) FROM ask_docs_entities)::int AS entities,
              ${last('ask_docs_keys', 'key_id')},
              ${last('ask_docs_chunks', 'chunk_no')},
              ${last('ask_docs_entities', 'entity_no')}`,
    );
    return rows[0] as Record<
      'keys' | 'chunks' | 'entities' | 'key_id' | 'chunk_no' | 'entity_no',
      number
    >;
  }
  /** How far the counts and sequences moved from `before`. */
  const moved = async (before: Awaited<ReturnType<typeof state>>) => {
    const after = await state();
    return Object.fromEntries(
      Object.entries(after).map(([k, v]) => [
        k,
        v - before[k as keyof typeof before],
      ]),
    );
  };
  const none = {
    keys: 0,
    chunks: 0,
    entities: 0,
    key_id: 0,
    chunk_no: 0,
    entity_no: 0,
  };

  const ref = 'component:default/docs';
  const runOnce = async (pages: PageWrite[], entities = [entity('docs')]) => {
    for (const e of entities) await store.upsertEntity(e);
    await store.replaceDocuments(pages, MODEL);
  };

  it('takes no numbers when pages, keys and entities are written again unchanged', async () => {
    await runOnce(site(ref));
    const first = await state();
    expect(first.keys).toBeGreaterThan(40);
    expect(first.chunks).toBe(30);
    // A run after a site rebuild: the same entity row, pages, chunks and keys, four times.
    for (let run = 0; run < 4; run++) await runOnce(site(ref));
    expect(await moved(first)).toEqual(none);
    // Changed texts of known words only: their chunks' keys are resolved again, all known.
    const reworded = site(ref).map(p =>
      page(
        ref,
        p.doc.pagePath,
        p.chunks.map(c => c.text.split(' ').reverse().join(' ')),
      ),
    );
    const results = await store.replaceDocuments(reworded, MODEL);
    expect(results.every(r => r.chunksWritten === 3)).toBe(true);
    await runOnce(site(ref)); // and back
    expect(await moved(first)).toEqual(none);
  });

  it('takes none when unchanged chunks are re-analysed (a new analysis signature)', async () => {
    const before = await state();
    await store.upsertEntity(entity('docs'));
    const results = await store.replaceDocuments(
      site(ref).map(p =>
        page(
          ref,
          p.doc.pagePath,
          p.chunks.map(c => c.text),
          { signature: 'a2' },
        ),
      ),
      MODEL,
    );
    expect(results.every(r => r.chunksReanalysed === 3)).toBe(true);
    expect(await moved(before)).toEqual(none);
  });

  it('takes exactly one number per new key, chunk and entity', async () => {
    const before = await state();
    // Page p0 gains a chunk with two new words (each a 'w' and an 'l' key) and one known word;
    // a second entity arrives with one page of known words only.
    await runOnce(
      [
        ...site(ref, ['alpha brandnew otherword']),
        page('component:default/more', 'x', ['deploy release']),
      ],
      [entity('docs'), entity('more')],
    );
    expect(await moved(before)).toEqual({
      keys: 4,
      chunks: 2,
      entities: 1,
      key_id: 4,
      chunk_no: 2,
      entity_no: 1,
    });
  });

  it('updates a chunk row as the upsert did: first_seen kept only for the same text', async () => {
    await runOnce(site(ref));
    const old = new Date('2020-01-01T00:00:00Z');
    await db.knex('ask_docs_chunks').update({ first_seen: old });
    const [p0] = site(ref);
    const texts = p0.chunks.map(c => c.text);
    const next = page(ref, 'p0', [texts[0], 'closing notes', texts[2]]);
    await store.replaceDocuments([next], MODEL);
    const rows = await db
      .knex('ask_docs_chunks')
      .where('document_id', next.doc.documentId)
      .orderBy('ordinal');
    expect(
      rows.map(({ chunk_no, key_ids, first_seen, ...columns }) => columns),
    ).toEqual(
      next.chunks.map(c =>
        chunkColumns({
          ...c,
          documentId: next.doc.documentId,
          entityRef: ref,
          revision: next.doc.revision,
        }),
      ),
    );
    expect(rows.map(r => r.first_seen.getTime() === old.getTime())).toEqual([
      true,
      false,
      true,
    ]);
    expect(
      (await indexedChunkKeys(db.knex, next.chunks[1].chunkId)).map(
        k => `${k.kind} ${k.term} ${k.tf}`,
      ),
    ).toEqual(['l closing 1', 'l notes 1', 'w closing 1', 'w notes 1']);
  });

  it('takes the id of a key another writer inserted between its read and its insert', async () => {
    const terms = ['racedword', 'ownword'].map(term => ({
      kind: 'w' as const,
      term,
      tf: 1,
    }));
    await db.knex
      .transaction(async tx => {
        // The other writer's row is there once the insert runs (its commit, as the insert sees it).
        const raced = new Proxy(tx, {
          get(target, property, receiver) {
            if (property !== 'raw')
              return Reflect.get(target, property, receiver);
            return async (sql: string, bindings: any) => {
              if (sql.startsWith('INSERT INTO ask_docs_keys'))
                await target.raw(
                  "INSERT INTO ask_docs_keys (kind, term) VALUES ('w', 'racedword')",
                );
              return target.raw(sql, bindings);
            };
          },
        });
        const prepared = await prepareChunkKeys(raced, [
          { chunkId: 'c', terms },
        ]);
        const stored = await tx('ask_docs_keys')
          .whereIn(
            'term',
            terms.map(t => t.term),
          )
          .orderBy('key_id')
          .pluck('key_id');
        expect(stored).toHaveLength(2);
        expect(
          [...prepared.get('c')!.tfs.keys()].sort((a, b) => a - b),
        ).toEqual(stored);
        throw new Error('rollback');
      })
      .catch(e => {
        if ((e as Error).message !== 'rollback') throw e;
      });
  });
});
