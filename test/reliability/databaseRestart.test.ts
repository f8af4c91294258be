/*
 * The database dies in the middle of an ingestion run and comes back (same data folder, same
 * port). The run must survive it (errors recorded, nothing thrown), no page may be left half
 * written, and the next run must converge to exactly the index a clean ingestion builds.
 */
import { EmbeddedPostgres, startEmbeddedPostgres } from '@askdocs/embedded-db';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import fs from 'fs';
import knexFactory, { Knex } from 'knex';
import net from 'net';
import os from 'os';
import path from 'path';
import { applyDatabaseMigrations } from '../../plugins/ask-docs-backend/src/database/migrations';
// prettier-ignore
import {
  DatabaseAskDocsStore,
} from '../../plugins/ask-docs-backend/src/database/DatabaseAskDocsStore';
import { DocumentRow } from '../../plugins/ask-docs-backend/src/database/AskDocsStore';
import { HashingEmbedder } from '../../plugins/ask-docs-backend/src/embedding';
import { Ingester } from '../../plugins/ask-docs-backend/src/ingestion/Ingester';
import { TechDocsReader } from '../../plugins/ask-docs-backend/src/ingestion/sources';
import {
  chunkSections,
  documentIdFor,
  entityToDocument,
  parseHtmlPage,
} from '../../plugins/ask-docs-backend/src/ingestion/parsing';
import { createLanguageAnalyzers } from '../../plugins/ask-docs-backend/src/language';
import {
  corpusSite,
  docsComponent,
  FileTechDocsReader,
  quietLogger,
  StaticEntitySource,
} from '../src';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise(resolve => server.close(resolve));
  return port;
}

async function waitForExit(pid: number) {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise(r => setTimeout(r, 50));
  }
}

/** Holds every page read while `gate` is set: the outage is shorter than the rest of the run. */
class GatedReader implements TechDocsReader {
  gate: Promise<unknown> | undefined;
  constructor(private readonly inner: TechDocsReader) {}
  getSite(entity: Entity) {
    return this.inner.getSite(entity);
  }
  async getPage(entity: Entity, pagePath: string) {
    const html = await this.inner.getPage(entity, pagePath);
    if (this.gate) await this.gate;
    return html;
  }
}

describe('ingestion across a database crash and restart', () => {
  let dataDir: string;
  let port: number;
  let pg: EmbeddedPostgres;
  let knex: Knex;
  const entities: Entity[] = [];
  const pagesOf = new Map<string, string[]>();
  let files: FileTechDocsReader;
  /** Chunk ids a clean ingestion produces, per document id. */
  const expected = new Map<string, string[]>();

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ask-docs-restart-'));
    port = await freePort();
    pg = await startEmbeddedPostgres({ dataDir, port });
    // The crash makes pooled connections fail; that is expected here, not worth a log line each.
    const quiet = () => {};
    knex = knexFactory({
      client: 'pg',
      connection: pg.connection,
      pool: { min: 0, max: 5 },
      log: { warn: quiet, error: quiet, debug: quiet, deprecate: quiet },
    });
    await applyDatabaseMigrations(knex);

    // A subset of the PostgreSQL manual (large pages: each write is a long transaction) over two
    // entities.
    const site = await corpusSite('postgresql-docs');
    const pages = site.pages.filter((_, i) => i % 24 === 3);
    files = new FileTechDocsReader();
    for (const [i, name] of ['pg-manual-a', 'pg-manual-b'].entries()) {
      const entity = docsComponent(name, {
        title: `PostgreSQL manual ${i}`,
        owner: 'group:default/dba',
      });
      const own = pages.filter((_, j) => j % 2 === i);
      entities.push(entity);
      pagesOf.set(stringifyEntityRef(entity), own);
      files.add(stringifyEntityRef(entity), {
        dir: site.siteDir,
        siteName: name,
        pages: own,
      });
    }

    // The oracle: what the parser and chunker make of every page, computed without a database.
    for (const entity of entities) {
      const ref = stringifyEntityRef(entity);
      const catalog = entityToDocument(entity);
      catalog.title = `${catalog.title} (${entity.kind})`;
      const catalogId = documentIdFor(ref, 'catalog', '');
      expected.set(
        catalogId,
        chunkSections(catalog, { documentId: catalogId })
          .map(c => c.chunkId)
          .sort(),
      );
      const meta = (await files.getSite(entity))!;
      for (const pagePath of pagesOf.get(ref)!) {
        const page = parseHtmlPage(await files.getPage(entity, pagePath), {
          siteName: meta.siteName,
          fallbackTitle: pagePath,
        });
        const documentId = documentIdFor(ref, 'techdocs', pagePath);
        expected.set(
          documentId,
          chunkSections(page, { documentId })
            .map(c => c.chunkId)
            .sort(),
        );
      }
    }
  });

  afterAll(async () => {
    await knex?.destroy();
    await pg?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function ingester(options: {
    store: DatabaseAskDocsStore;
    techdocs: TechDocsReader;
  }) {
    return new Ingester({
      ...options,
      entities: new StaticEntitySource(entities),
      embedder: new HashingEmbedder(),
      analyzers: await createLanguageAnalyzers({
        languages: ['en'],
        onMissingDictionary: 'stem-only',
        logger: quietLogger(),
      }),
      languages: ['en'],
      logger: quietLogger(),
    });
  }

  /** Every stored document has exactly its chunks, each with postings and a vector. */
  async function expectNoPartialDocuments() {
    const docs = await knex('ask_docs_documents').select('document_id');
    const chunks = await knex('ask_docs_chunks').select(
      'chunk_id',
      'document_id',
    );
    const byDoc = new Map<string, string[]>();
    for (const c of chunks)
      byDoc.set(c.document_id, [
        ...(byDoc.get(c.document_id) ?? []),
        c.chunk_id,
      ]);
    for (const { document_id: id } of docs) {
      expect({ id, chunks: (byDoc.get(id) ?? []).sort() }).toEqual({
        id,
        chunks: expected.get(id),
      });
    }
    // chunks never outlive or precede their document
    expect(
      [...byDoc.keys()].filter(id => !docs.some(d => d.document_id === id)),
    ).toEqual([]);
    const withoutVector = await knex('ask_docs_chunks as c')
      .leftJoin('ask_docs_embeddings as e', 'e.chunk_id', 'c.chunk_id')
      .whereNull('e.chunk_id')
      .count('* as n')
      .first();
    expect(Number(withoutVector!.n)).toBe(0);
    // Every chunk was indexed: its key list is written with its posting lists.
    const withoutTerms = await knex('ask_docs_chunks as c')
      .whereNull('c.key_ids')
      .count('* as n')
      .first();
    expect(Number(withoutTerms!.n)).toBe(0);
    return docs.map(d => d.document_id as string);
  }

  it(`records the interrupted run, leaves no half-written page and converges on the next \
run`, async () => {
    const totalPages = [...pagesOf.values()].reduce((n, p) => n + p.length, 0);
    expect(totalPages).toBeGreaterThanOrEqual(40);

    const store = new DatabaseAskDocsStore(knex);
    const reader = new GatedReader(files);
    const KILL_AT = 12;
    let writes = 0;
    let killedPages: DocumentRow[] = [];
    let restarted: Promise<void> | undefined;
    const replace = store.replaceDocuments.bind(store);
    store.replaceDocuments = (pages, model) => {
      const write = replace(pages, model);
      writes += pages.length;
      if (killedPages.length === 0 && writes >= KILL_AT) {
        // The batch has not reached the server yet: it is certainly cut off mid-transaction.
        killedPages = pages.map(p => p.doc);
        const pid = pg.pid;
        process.kill(pid, 'SIGKILL');
        restarted = (async () => {
          await waitForExit(pid);
          pg = await startEmbeddedPostgres({ dataDir, port });
        })();
        reader.gate = restarted;
      }
      return write;
    };

    const progress = await (
      await ingester({ store, techdocs: reader })
    ).run('manual');
    await restarted;
    expect(killedPages.length).toBeGreaterThan(0);

    const run = await store.latestRun();
    expect(run).toBeDefined();
    expect(['succeeded', 'failed']).toContain(run!.status);
    expect(run!.finishedAt).toBeDefined();

    const present = await expectNoPartialDocuments();
    // Each page of the cut-off batch was written again whole (page by page, once the database
    // was back), or its failure is recorded against it: never half there, never silently gone.
    for (const doc of killedPages) {
      if (present.includes(doc.documentId)) continue;
      expect(progress.errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            entityRef: doc.entityRef,
            ...(doc.sourceKind === 'techdocs' ? { page: doc.pagePath } : {}),
          }),
        ]),
      );
    }
    // the run went on after the restart: pages read after it were indexed
    expect(present.length).toBeGreaterThan(KILL_AT);

    // The next run, against the restarted database, completes and converges.
    const second = await (
      await ingester({ store: new DatabaseAskDocsStore(knex), techdocs: files })
    ).run('manual');
    expect(second.errors).toEqual([]);
    expect((await store.latestRun())!.status).toBe('succeeded');
    const after = await expectNoPartialDocuments();
    expect(after.sort()).toEqual([...expected.keys()].sort());
    const ids = (await knex('ask_docs_chunks').select('chunk_id'))
      .map(r => r.chunk_id)
      .sort();
    expect(ids).toEqual([...expected.values()].flat().sort());
    // what survived the crash was kept, not rewritten
    expect(second.pagesSkipped).toBeGreaterThanOrEqual(present.length);
  });
});
