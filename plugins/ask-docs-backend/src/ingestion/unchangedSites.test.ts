/*
 * A site whose build is the one the last whole ingestion read is not read again: one metadata
 * request per entity instead of one per page. Anything that makes other chunks of the same pages
 * (a new build, a page that failed, the chunk size, the model) reads it again.
 */
import http from 'http';
import { HashingEmbedder } from '../embedding';
import { createLanguageAnalyzers } from '../language';
import type { IngesterOptions } from './Ingester';
import { oneSiteCatalog } from '../testUtils/catalogComponent';
import { startTechDocsIngestion } from '../testUtils/techDocsServer';

const BASE_PATH = '/api/techdocs';
const SITE = `${BASE_PATH}/static/docs/default/component/guide/`;
const page = (text: string) =>
  `<html><head><title>${text}</title></head><body><article class="md-content__inner">` +
  `<h1 id="top">${text}</h1><p>The zebrafoo service ${text}.</p></article></body></html>`;

describe('unchanged sites', () => {
  let ingestion: Awaited<ReturnType<typeof startTechDocsIngestion>>;
  /** What the metadata names: undefined leaves the field out. */
  let etag: string | undefined = 'commit-1';
  let buildTimestamp: number | undefined = 1000;
  /** Pages read since the last reset. */
  let reads: string[] = [];
  /** A page answered with 500 (once). */
  let failing: string | undefined;

  beforeAll(async () => {
    const server = http.createServer((req, res) => {
      const file = (req.url ?? '').slice(SITE.length);
      if (file === 'techdocs_metadata.json') {
        res.end(
          JSON.stringify({
            site_name: 'Guide',
            files: ['index.html', 'restart/index.html'],
            ...(etag !== undefined ? { etag } : {}),
            ...(buildTimestamp !== undefined
              ? { build_timestamp: buildTimestamp }
              : {}),
          }),
        );
        return;
      }
      reads.push(file);
      if (file === failing) {
        failing = undefined;
        res.writeHead(500).end();
      } else if (file === 'index.html') {
        res.end(page('deploys with shipctl'));
      } else if (file === 'restart/index.html') {
        res.end(page('restarts with shipctl restart'));
      } else {
        res.writeHead(404).end();
      }
    });
    ingestion = await startTechDocsIngestion(server, BASE_PATH);
  });
  afterAll(async () => {
    await ingestion?.stop();
  });

  const run = async (options?: Partial<IngesterOptions>) => {
    reads = [];
    return ingestion.run(oneSiteCatalog('guide'), options);
  };
  const chunkTexts = () =>
    ingestion.db
      .knex('ask_docs_chunks as c')
      .join('ask_docs_documents as d', 'd.document_id', 'c.document_id')
      .where('d.source_kind', 'techdocs')
      .orderBy('c.text')
      .pluck('c.text');

  it('reads no page of a build it ingested whole, and keeps its chunks', async () => {
    let progress = await run();
    expect(progress.errors).toEqual([]);
    expect(reads.sort()).toEqual(['index.html', 'restart/index.html']);
    const before = await chunkTexts();
    expect(before).toHaveLength(2);

    progress = await run();
    expect(reads).toEqual([]);
    expect(progress).toMatchObject({
      pagesSkipped: 3, // the catalog document and both pages
      pagesDone: 3,
      chunksWritten: 0,
      chunksDeleted: 0,
    });
    expect(await chunkTexts()).toEqual(before);
  });

  it('reads the pages of a rebuild, even of the same source revision', async () => {
    await run();
    buildTimestamp = 2000; // same etag: another generator run over the same commit
    await run();
    expect(reads.sort()).toEqual(['index.html', 'restart/index.html']);
    await run();
    expect(reads).toEqual([]);
  });

  it('reads the site again after a run in which a page failed', async () => {
    buildTimestamp = 3000;
    failing = 'restart/index.html';
    let progress = await run();
    expect(progress.errors).toHaveLength(1);
    // The same build again: the page that failed, and so the whole site, is read.
    progress = await run();
    expect(progress.errors).toEqual([]);
    expect(reads.sort()).toEqual(['index.html', 'restart/index.html']);
    await run();
    expect(reads).toEqual([]);
  });

  it('reads the site again when its chunks or vectors would differ', async () => {
    await run();
    expect(reads).toEqual([]);
    await run({ maxChunkChars: 600 });
    expect(reads).toHaveLength(2);
    const analyzers = await createLanguageAnalyzers({ languages: ['en'] });
    await run({
      maxChunkChars: 600,
      embedder: new HashingEmbedder({ analyzers, dimension: 64 }),
    });
    expect(reads).toHaveLength(2);
    await run({
      maxChunkChars: 600,
      embedder: new HashingEmbedder({ analyzers, dimension: 64 }),
    });
    expect(reads).toEqual([]);
  });

  it('reads the site again for another analysis, or when a page lost its vectors', async () => {
    buildTimestamp = 4000;
    await run();
    await run();
    expect(reads).toEqual([]);
    const analyzers = await createLanguageAnalyzers({
      languages: ['en', 'cs'],
    });
    await run({ analyzers, languages: ['en', 'cs'] });
    expect(reads).toHaveLength(2);
    await run({ analyzers, languages: ['en', 'cs'] });
    expect(reads).toEqual([]);
    // The same key, but the vectors are gone (a model retired and back): the pages are read
    // and embedded again instead of staying unsearchable.
    await ingestion.db.knex('ask_docs_embeddings').delete();
    const progress = await run({ analyzers, languages: ['en', 'cs'] });
    expect(reads).toHaveLength(2);
    expect(progress.chunksEmbedded).toBeGreaterThan(0);
  });

  it('always reads a site whose metadata names no build', async () => {
    etag = undefined;
    buildTimestamp = undefined;
    await run();
    expect(reads).toHaveLength(2);
    await run();
    expect(reads).toHaveLength(2);
  });
});
