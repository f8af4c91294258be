/*
 * A page is read only as far as the parser would use it: parseHtmlPage parses at most 10
 * characters of markup per character of page text (askDocs.ingestion.maxPageChars), at least a
 * million, and no character takes more than 3 bytes of UTF-8. A larger page is read that far,
 * whether its content-length says so or its body only shows it, and indexed cut, as the parser
 * would cut it.
 */
import http from 'http';
import { catalogComponent } from '../testUtils/catalogComponent';
import { startTechDocsIngestion } from '../testUtils/techDocsServer';
import { PAGE_NOTE_TRUNCATED } from './parsing';

const BASE_PATH = '/api/techdocs';
const SITE = `${BASE_PATH}/static/docs/default/component/guide/`;
const MAX_PAGE_CHARS = 1_000;
const HUGE = 40 * 1024 * 1024;
const html = (body: string) =>
  '<html><head><title>Guide</title></head><body><article class="md-content__inner">' +
  `<h1 id="guide">Guide</h1>${body}</article></body></html>`;

/** Bytes the server got to send of each huge page before the reader hung up. */
const sent: Record<string, number> = {};

/** Writes `total` bytes of markup, as fast as the reader takes them, until it hangs up. */
function streamMarkup(res: http.ServerResponse, file: string, total: number) {
  const block = Buffer.from(`<p>${'zebrafoo '.repeat(7000)}</p>`);
  sent[file] = 0;
  const write = () => {
    while (sent[file] < total && !res.destroyed) {
      sent[file] += block.length;
      if (!res.write(block)) return;
    }
    if (!res.destroyed) res.end();
  };
  res.on('drain', write);
  write();
}

describe('page size', () => {
  let ingestion: Awaited<ReturnType<typeof startTechDocsIngestion>>;

  beforeAll(async () => {
    const server = http.createServer((req, res) => {
      const file = (req.url ?? '').slice(SITE.length);
      if (file === 'techdocs_metadata.json') {
        const files = ['index.html', 'declared.html', 'streamed.html'];
        res.end(JSON.stringify({ site_name: 'Guide', files }));
      } else if (file === 'index.html') {
        // Under the limit however much markup it has: parsed, cut, noted as truncated.
        const body = `<p>Restart zebrafoo with shipctl.</p>${'<b></b>'.repeat(
          150_000,
        )}`;
        res.end(html(body));
      } else if (file === 'declared.html') {
        res.writeHead(200, { 'content-length': String(HUGE) });
        streamMarkup(res, file, HUGE);
      } else if (file === 'streamed.html') {
        streamMarkup(res, file, HUGE); // chunked: no length announced
      } else {
        res.writeHead(404).end();
      }
    });
    ingestion = await startTechDocsIngestion(server, BASE_PATH, {
      maxPageChars: MAX_PAGE_CHARS,
    });
  });
  afterAll(async () => {
    await ingestion?.stop();
  });

  it('reads a page over the limit no further and indexes it cut, like the others', async () => {
    const progress = await ingestion.run(
      {
        async *listEntities() {
          yield catalogComponent('guide', {
            owner: 'group:default/docs',
            type: 'documentation',
            annotations: { 'backstage.io/techdocs-ref': 'dir:.' },
          });
        },
      },
      { maxPageChars: MAX_PAGE_CHARS },
    );
    expect(progress.errors).toEqual([]);
    // The socket buffers a little; nowhere near the whole body was sent.
    expect(sent['declared.html']).toBeLessThan(HUGE / 4);
    expect(sent['streamed.html']).toBeLessThan(HUGE / 4);
    const pages = await ingestion.db
      .knex('ask_docs_documents as d')
      .join('ask_docs_chunks as c', 'c.document_id', 'd.document_id')
      .where({ source_kind: 'techdocs' })
      .groupBy('d.page_path', 'd.note')
      .orderBy('d.page_path')
      .select('d.page_path', 'd.note')
      .max('c.char_end as end');
    expect(pages).toEqual(
      ['declared.html', 'index.html', 'streamed.html'].map(page_path => ({
        page_path,
        note: PAGE_NOTE_TRUNCATED,
        end: expect.any(Number),
      })),
    );
    for (const page of pages)
      expect(page.end).toBeLessThanOrEqual(MAX_PAGE_CHARS);
  });
});
