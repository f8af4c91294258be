/*
 * An unchanged page is skipped on the next run; "unchanged" covers its title too. The text hash
 * leaves the title out, and a page without a heading takes its title from `<title>` (or the site
 * name), which every chunk's "Title › Section" path repeats: a renamed page is written again.
 */
import http from 'http';
import { catalogComponent } from '../testUtils/catalogComponent';
import { startTechDocsIngestion } from '../testUtils/techDocsServer';

const BASE_PATH = '/api/techdocs';
const SITE = `${BASE_PATH}/static/docs/default/component/guide/`;
/** A page without headings: its title is the `<title>`. */
const page = (title: string) =>
  `<html><head><title>${title}</title></head><body><article class="md-content__inner">` +
  '<p>Restart the zebrafoo service with shipctl restart.</p></article></body></html>';

describe('unchanged pages', () => {
  let ingestion: Awaited<ReturnType<typeof startTechDocsIngestion>>;
  let title = 'Restarting zebrafoo';

  beforeAll(async () => {
    const server = http.createServer((req, res) => {
      const file = (req.url ?? '').slice(SITE.length);
      if (file === 'techdocs_metadata.json') {
        res.end(JSON.stringify({ site_name: 'Guide', files: ['index.html'] }));
      } else if (file === 'index.html') {
        res.end(page(title));
      } else {
        res.writeHead(404).end();
      }
    });
    ingestion = await startTechDocsIngestion(server, BASE_PATH);
  });
  afterAll(async () => {
    await ingestion?.stop();
  });

  const run = () =>
    ingestion.run({
      async *listEntities() {
        yield catalogComponent('guide', {
          owner: 'group:default/docs',
          type: 'documentation',
          annotations: { 'backstage.io/techdocs-ref': 'dir:.' },
        });
      },
    });
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
});
