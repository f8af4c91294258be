import http from 'http';
import { catalogComponent } from '../testUtils/catalogComponent';
import { techDocsReaderOn } from '../testUtils/techDocsServer';

const BASE_PATH = '/api/techdocs';
const SITE = `${BASE_PATH}/static/docs/default/component/wiki/`;

describe('TechDocsBackendReader page lists', () => {
  let server: http.Server;
  let searchIndex = '';
  let chunked = false;
  const entity = catalogComponent('wiki', {
    owner: 'group:default/docs',
    type: 'documentation',
    annotations: { 'backstage.io/techdocs-ref': 'dir:.' },
  });

  beforeAll(() => {
    server = http.createServer((req, res) => {
      const file = (req.url ?? '').slice(SITE.length);
      if (file === 'techdocs_metadata.json')
        res.end(JSON.stringify({ site_name: 'Wiki', etag: 'w1' }));
      else if (file === 'search/search_index.json') {
        // Chunked (no Content-Length) when asked: the size is known only as it is read.
        if (chunked) {
          res.write(searchIndex.slice(0, 10));
          res.end(searchIndex.slice(10));
        } else res.end(searchIndex);
      } else res.writeHead(404).end();
    });
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise(resolve => server.close(resolve));
  });

  it('reads the search index up to its limit and refuses a larger one whole', async () => {
    const reader = await techDocsReaderOn(server, BASE_PATH, {
      maxSearchIndexBytes: 200,
    });
    searchIndex = JSON.stringify({
      docs: [{ location: '' }, { location: 'faq/' }],
    });
    expect((await reader.getSite(entity))?.pages).toEqual([
      'index.html',
      'faq/index.html',
    ]);
    // Past the limit: an error (the run keeps what was indexed), not a cut file or an OOM.
    searchIndex = JSON.stringify({
      docs: [{ location: '' }, { location: 'x'.repeat(300) }],
    });
    for (chunked of [false, true]) {
      await expect(reader.getSite(entity)).rejects.toThrow(
        /search_index\.json is larger than 200 bytes; not read/,
      );
    }
  });
});
