/*
 * Acceptance of the knowledge index: real Postgres + pgvector (embedded PGlite over the wire),
 * real TechDocs backend serving real MkDocs sites, our plugin reading them over HTTP.
 */
import { Entity } from '@backstage/catalog-model';
import fs from 'fs';
import os from 'os';
import path from 'path';
import {
  startTestDatabase,
  TestDatabase,
} from '../../plugins/ask-docs-backend/src/testUtils/testDatabase';
import { indexedChunkKeys } from '../../plugins/ask-docs-backend/src/database/keywordIndex';
// prettier-ignore
import {
  unpackCorpus,
} from '../../plugins/ask-docs-backend/src/ingestion/parsing/testUtils/unpackCorpus';
import {
  AskDocsTestBackend,
  ingestThroughApi,
  listFiles,
  publishSite,
  startAskDocsTestBackend,
  writeMetadata,
} from '../src';

const component = (
  name: string,
  title: string,
  extra: Partial<Entity['metadata']> = {},
): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name,
    namespace: 'default',
    title,
    etag: `etag-${name}`,
    annotations: { 'backstage.io/techdocs-ref': 'dir:.' },
    ...extra,
  },
  spec: {
    type: 'documentation',
    lifecycle: 'production',
    owner: 'group:default/docs',
  },
});

describe('ingestion through the TechDocs backend', () => {
  let db: TestDatabase;
  let publishDir: string;
  let backend: AskDocsTestBackend;
  const entities: Entity[] = [];
  let pyvecPages = 0;
  let mkdocsPages = 0;

  beforeAll(async () => {
    db = await startTestDatabase({ migrate: false });
    publishDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ask-docs-techdocs-'));
    const pyvec = await unpackCorpus('pyvec-docs-cs');
    const mkdocs = await unpackCorpus('mkdocs-docs-en');
    publishSite({
      siteDir: path.join(pyvec, 'site'),
      publishDir,
      entity: { kind: 'Component', name: 'pyvec-docs' },
      siteName: 'Pyvec',
    });
    publishSite({
      siteDir: path.join(mkdocs, 'site'),
      publishDir,
      entity: { kind: 'Component', name: 'mkdocs-guide' },
      siteName: 'MkDocs',
    });
    const pages = (dir: string) =>
      listFiles(path.join(dir, 'site')).filter(
        f =>
          f.endsWith('.html') && f !== '404.html' && !f.startsWith('search/'),
      ).length;
    pyvecPages = pages(pyvec);
    mkdocsPages = pages(mkdocs);
    entities.push(
      component('pyvec-docs', 'Pyvec'),
      component('mkdocs-guide', 'MkDocs guide'),
      {
        ...component('no-docs', 'Service without docs'),
        metadata: {
          name: 'no-docs',
          namespace: 'default',
          etag: 'e1',
          description: 'A service that only has a catalog entry.',
        },
      },
    );

    backend = await startAskDocsTestBackend({
      db,
      publishDir,
      entities,
      logLevel: 'warn',
      askDocsConfig: { languages: ['en', 'cs'] },
    });
  });

  afterAll(async () => {
    await backend?.stop();
    await db?.stop();
    fs.rmSync(publishDir, { recursive: true, force: true });
  });

  const runIngestion = () =>
    ingestThroughApi(backend.server, 'user:default/mock');

  it(`indexes every page of both sites with durable chunk identity, then re-ingests \
nothing`, async () => {
    const first = await runIngestion();
    expect(first.status).toBe('succeeded');
    expect(first.errors).toEqual([]);
    expect(first.entitiesDone).toBe(3);
    // every TechDocs page plus one catalog document per entity
    expect(first.pagesDone).toBe(pyvecPages + mkdocsPages + 3);
    expect(first.chunksEmbedded).toBeGreaterThan(100);
    expect(first.chunksEmbedded).toBe(first.chunksWritten);

    const docs = await db
      .knex('ask_docs_documents')
      .select('entity_ref', 'source_kind', 'lang', 'page_path');
    const pyvecDocs = docs.filter(
      d =>
        d.entity_ref === 'component:default/pyvec-docs' &&
        d.source_kind === 'techdocs',
    );
    expect(pyvecDocs).toHaveLength(pyvecPages);
    // language detected per document: the Pyvec docs are Czech, the MkDocs guide English
    expect(pyvecDocs.filter(d => d.lang === 'cs').length).toBeGreaterThan(
      pyvecPages * 0.8,
    );
    const mkDocs = docs.filter(
      d =>
        d.entity_ref === 'component:default/mkdocs-guide' &&
        d.source_kind === 'techdocs',
    );
    expect(mkDocs.every(d => d.lang === 'en')).toBe(true);

    const chunk = await db
      .knex('ask_docs_chunks as c')
      .join('ask_docs_documents as d', 'd.document_id', 'c.document_id')
      .where('d.page_path', 'user-guide/configuration/index.html')
      .select('c.*', 'd.url')
      .orderBy('c.ordinal')
      .first();
    expect(chunk.section_path.startsWith(`${chunk.title}`)).toBe(true);
    expect(chunk.url).toBe(
      '/docs/default/component/mkdocs-guide/user-guide/configuration/',
    );
    const embedding = await db
      .knex('ask_docs_embeddings')
      .where('chunk_id', chunk.chunk_id)
      .first();
    // The plugin builds the fallback with its language analyzers (v2), named by their languages.
    expect(embedding.model_id).toBe('hashing-fallback-v2-en+cs-384');
    const terms = await indexedChunkKeys(db.knex, chunk.chunk_id);
    expect(terms.every(t => t.tf > 0)).toBe(true);
    expect(new Set(terms.map(t => t.kind))).toEqual(new Set(['l', 's', 'w']));

    const idsBefore = (
      await db.knex('ask_docs_chunks').select('chunk_id').orderBy('chunk_id')
    ).map(r => r.chunk_id);
    const second = await runIngestion();
    expect(second.status).toBe('succeeded');
    expect(second.chunksEmbedded).toBe(0);
    expect(second.chunksWritten).toBe(0);
    expect(second.pagesSkipped).toBe(second.pagesDone);
    const idsAfter = (
      await db.knex('ask_docs_chunks').select('chunk_id').orderBy('chunk_id')
    ).map(r => r.chunk_id);
    expect(idsAfter).toEqual(idsBefore);
  });

  it(`re-embeds only the changed chunks of a changed page and keeps the old text for \
audit`, async () => {
    const siteDir = path.join(
      publishDir,
      'default',
      'component',
      'mkdocs-guide',
    );
    const page = path.join(
      siteDir,
      'user-guide',
      'configuration',
      'index.html',
    );
    const html = fs.readFileSync(page, 'utf8');
    const marker = 'The zebra configuration option was added for this test.';
    const changed = html.replace(
      /(<h3 id="site_name"[^]*?<p>)/,
      `$1${marker} `,
    );
    expect(changed).not.toBe(html);
    fs.writeFileSync(page, changed);
    writeMetadata(siteDir, 'MkDocs');

    const before = await db
      .knex('ask_docs_chunks')
      .select('chunk_id', 'content_hash');
    const run = await runIngestion();
    expect(run.status).toBe('succeeded');
    expect(run.chunksEmbedded).toBeGreaterThanOrEqual(1);
    expect(run.chunksEmbedded).toBeLessThanOrEqual(3);
    const after = await db
      .knex('ask_docs_chunks')
      .select('chunk_id', 'content_hash');
    const beforeMap = new Map(before.map(r => [r.chunk_id, r.content_hash]));
    const changedIds = after
      .filter(r => beforeMap.get(r.chunk_id) !== r.content_hash)
      .map(r => r.chunk_id);
    expect(changedIds.length).toBe(run.chunksEmbedded);
    // the same ids survive: the changed chunk kept its identity
    expect(changedIds.every(id => beforeMap.has(id))).toBe(true);
    // The replaced text is kept as a superseded version; the new one is stored once, in the
    // chunk row (migration 0008), not also as a version.
    const versions = await db
      .knex('ask_docs_chunk_versions')
      .whereIn('chunk_id', changedIds);
    expect(versions.length).toBeGreaterThan(0);
    expect(
      versions.every(
        v => v.superseded_at !== null && !v.text.includes('zebra'),
      ),
    ).toBe(true);
    const current = await db
      .knex('ask_docs_chunks')
      .whereIn('chunk_id', changedIds)
      .select('text', 'first_seen');
    expect(current.some(c => c.text.includes('zebra'))).toBe(true);
    // Its text is new, so it was first seen after the version it replaced.
    const firstSeenOld = Math.max(
      ...versions.map(v => new Date(v.first_seen).getTime()),
    );
    expect(
      current.every(c => new Date(c.first_seen).getTime() > firstSeenOld),
    ).toBe(true);
  });

  it('removes a deleted entity a day later: its chunks, vectors and posting lists', async () => {
    const index = entities.findIndex(e => e.metadata.name === 'pyvec-docs');
    const { entity_no: entityNo } = await db
      .knex('ask_docs_entities')
      .where('entity_ref', 'component:default/pyvec-docs')
      .first('entity_no');
    const lists = async () =>
      Number(
        (
          await db
            .knex('ask_docs_postings')
            .where('entity_no', entityNo)
            .count('* as n')
            .first()
        )?.n,
      );
    expect(await lists()).toBeGreaterThan(0);
    entities.splice(index, 1);
    const ref = 'component:default/pyvec-docs';
    // Hidden at once (askDocs.retention.removedEntityDays, default 1), kept for a day.
    const hiding = await runIngestion();
    expect(hiding.status).toBe('succeeded');
    expect(hiding.chunksDeleted).toBe(0);
    expect(
      await db.knex('ask_docs_entities').where('entity_ref', ref).first(),
    ).toMatchObject({ deleted_at: expect.any(Date) });
    expect(await lists()).toBeGreaterThan(0);
    // A day later (its hiding moved back a day): the next run deletes it.
    await db
      .knex('ask_docs_entities')
      .where('entity_ref', ref)
      .update({ deleted_at: db.knex.raw("deleted_at - interval '1 day'") });
    const run = await runIngestion();
    expect(run.status).toBe('succeeded');
    expect(run.chunksDeleted).toBeGreaterThan(0);
    expect(await lists()).toBe(0);
    for (const table of ['ask_docs_chunks', 'ask_docs_documents']) {
      expect(
        await db.knex(table).where('entity_ref', ref).count('* as n').first(),
      ).toEqual({ n: '0' });
    }
    expect(
      await db
        .knex('ask_docs_embeddings as e')
        .leftJoin('ask_docs_chunks as c', 'c.chunk_id', 'e.chunk_id')
        .whereNull('c.chunk_id')
        .count('* as n')
        .first(),
    ).toEqual({ n: '0' });
  });
});
