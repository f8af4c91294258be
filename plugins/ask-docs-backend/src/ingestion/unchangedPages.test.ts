/*
 * An unchanged page is skipped on the next run; "unchanged" covers its title too. The text hash
 * leaves the title out, and a page without a heading takes its title from `<title>` (or the site
 * name), which every chunk's "Title › Section" path repeats: a renamed page is written again.
 * So are a page whose anchors or sections changed around the same text, and every page once the
 * chunk size changed: their chunks would differ.
 */
import http from 'http';
import { HashingEmbedder } from '../embedding';
import type { IngesterOptions } from './Ingester';
import { oneSiteCatalog } from '../testUtils/catalogComponent';
import { startTechDocsIngestion } from '../testUtils/techDocsServer';

const BASE_PATH = '/api/techdocs';
const SITE = `${BASE_PATH}/static/docs/default/component/guide/`;
/** A page without headings: its title is the `<title>`. */
const page = (title: string) =>
  `<html><head><title>${title}</title></head><body><article class="md-content__inner">` +
  '<p>Restart the zebrafoo service with shipctl restart.</p></article></body></html>';
/** A page with sections: the rollback section's anchor is `anchor`. */
const sectioned = (anchor: string) =>
  '<html><head><title>Deploys</title></head><body><article class="md-content__inner">' +
  '<h1 id="deploys">Deploys</h1><p>Ship the zebrafoo service with shipctl deploy.</p>' +
  `<h2 id="${anchor}">Rolling back</h2><p>Undo a deploy with shipctl rollback. ` +
  'Then watch the error rate on the zebrafoo dashboard.</p></article></body></html>';

describe('unchanged pages', () => {
  let ingestion: Awaited<ReturnType<typeof startTechDocsIngestion>>;
  let title = 'Restarting zebrafoo';
  /** The page served; the titled page unless set. */
  let html: string | undefined;
  /** The site's build: every run below is a rebuild. */
  let build = 0;

  beforeAll(async () => {
    const server = http.createServer((req, res) => {
      const file = (req.url ?? '').slice(SITE.length);
      if (file === 'techdocs_metadata.json') {
        build += 1;
        res.end(
          JSON.stringify({
            site_name: 'Guide',
            files: ['index.html'],
            etag: `build-${build}`,
          }),
        );
      } else if (file === 'index.html') {
        res.end(html ?? page(title));
      } else {
        res.writeHead(404).end();
      }
    });
    ingestion = await startTechDocsIngestion(server, BASE_PATH);
  });
  afterAll(async () => {
    await ingestion?.stop();
  });

  const run = (options?: Partial<IngesterOptions>) =>
    ingestion.run(oneSiteCatalog('guide'), options);
  const stored = async () => ({
    document: await ingestion.db
      .knex('ask_docs_documents')
      .where({ source_kind: 'techdocs' })
      .pluck('title'),
    chunks: await ingestion.db
      .knex('ask_docs_chunks as c')
      .join('ask_docs_documents as d', 'd.document_id', 'c.document_id')
      .where('d.source_kind', 'techdocs')
      .pluck('c.section_path'),
  });

  it('writes a page again when only its title changed, and skips it when nothing did', async () => {
    let progress = await run();
    expect(progress.errors).toEqual([]);
    expect(await stored()).toEqual({
      document: ['Restarting zebrafoo'],
      chunks: ['Restarting zebrafoo'],
    });

    title = 'Restarting the zebrafoo service';
    progress = await run();
    expect(progress.pagesSkipped).toBe(1); // the entity's catalog document only
    expect(await stored()).toEqual({
      document: ['Restarting the zebrafoo service'],
      chunks: ['Restarting the zebrafoo service'],
    });

    progress = await run();
    expect(progress.pagesSkipped).toBe(2);
    expect(progress.chunksWritten).toBe(0);
  });

  const chunks = () =>
    ingestion.db
      .knex('ask_docs_chunks as c')
      .join('ask_docs_documents as d', 'd.document_id', 'c.document_id')
      .where('d.source_kind', 'techdocs')
      .orderBy('c.ordinal')
      .select('c.anchor', 'c.text');

  const revision = () =>
    ingestion.db
      .knex('ask_docs_documents')
      .where({ source_kind: 'techdocs' })
      .first('revision')
      .then(r => r.revision);

  it('writes a page again when only an anchor changed around the same text', async () => {
    html = sectioned('rollback');
    expect((await run()).errors).toEqual([]);
    expect((await chunks()).map(c => c.anchor)).toEqual([
      'deploys',
      'rollback',
    ]);

    const written = await revision();

    html = sectioned('how-to-roll-back');
    let progress = await run();
    expect(progress.pagesSkipped).toBe(1); // the entity's catalog document only
    // Citations of the section link to the anchor the page has now.
    expect((await chunks()).map(c => c.anchor)).toEqual([
      'deploys',
      'how-to-roll-back',
    ]);
    // Its text did not change: answers citing it are not outdated by a new build.
    expect(await revision()).toBe(written);
    html = sectioned('how-to-roll-back').replace(
      'the error rate',
      'the latency',
    );
    await run();
    expect(await revision()).not.toBe(written);

    progress = await run();
    expect(progress.pagesSkipped).toBe(2);
    expect(progress.chunksWritten).toBe(0);
  });

  it('chunks every page again when the chunk size changed', async () => {
    html = sectioned('rollback');
    await run();
    expect(await chunks()).toHaveLength(2);

    // The rollback section's two sentences no longer fit one chunk.
    let progress = await run({ maxChunkChars: 60 });
    expect(progress.errors).toEqual([]);
    expect(progress.pagesSkipped).toBe(0);
    expect((await chunks()).map(c => c.text)).toEqual([
      'Deploys\n\nShip the zebrafoo service with shipctl deploy.',
      'Rolling back\n\nUndo a deploy with shipctl rollback.',
      'Then watch the error rate on the zebrafoo dashboard.',
    ]);

    progress = await run({ maxChunkChars: 60 });
    expect(progress.pagesSkipped).toBe(2);
    expect(progress.chunksWritten).toBe(0);
  });

  it('keeps the revision for a new embedding model, not for text that moved', async () => {
    html = sectioned('rollback');
    await run();
    const written = await revision();

    // Every page is embedded again for another model; its text is the same.
    let progress = await run({
      embedder: new HashingEmbedder({ dimension: 64 }),
    });
    expect(progress.errors).toEqual([]);
    expect(progress.chunksEmbedded).toBeGreaterThan(0);
    expect(await revision()).toBe(written);

    // Two sibling sections the other way round: the same chunk texts, in another order.
    const steps = (first: string, second: string) =>
      '<html><head><title>Deploys</title></head><body><article class="md-content__inner">' +
      `<h1 id="deploys">Deploys</h1>${first}${second}</article></body></html>`;
    const ship = '<h2 id="ship">Ship</h2><p>Ship with shipctl deploy.</p>';
    const check =
      '<h2 id="check">Check</h2><p>Check the zebrafoo dashboard.</p>';
    html = steps(ship, check);
    await run({ embedder: new HashingEmbedder({ dimension: 64 }) });
    const ordered = await revision();
    html = steps(check, ship);
    progress = await run({ embedder: new HashingEmbedder({ dimension: 64 }) });
    expect(progress.errors).toEqual([]);
    expect(await revision()).not.toBe(ordered);
  });
});
