import { existsSync, promises as fs, readFileSync } from 'fs';
import * as path from 'path';
import { parseDocument } from 'htmlparser2';
import { chunkSections } from './chunkSections';
import { findAll } from './domQueries';
import { documentIdFor } from './identity';
import { parseHtmlPage } from './parseHtmlPage';
import { pageListFromSearchIndex } from './techdocsPages';
import {
  expectChunkInvariants,
  expectPageInvariants as expectPageConsistent,
} from './testUtils/invariants';
import { corporaDir, listFiles, unpackCorpus } from './testUtils/unpackCorpus';
import { Chunk, ParsedPage } from './types';

/*
 * The parser and chunker on real documentation: the MkDocs user guide and the Pyvec docs as
 * TechDocs publishes them (MkDocs material), and the PostgreSQL and Czech GIMP manuals (DocBook).
 */

jest.setTimeout(120_000);

const MAX_CHARS = 1200;

interface Parsed {
  rel: string;
  html: string;
  page: ParsedPage;
  chunks: Chunk[];
}

async function parseAll(root: string, entityRef: string): Promise<Parsed[]> {
  const files = await listFiles(root, f => f.endsWith('.html'));
  return Promise.all(
    files.map(async rel => {
      const html = await fs.readFile(path.join(root, rel), 'utf8');
      const page = parseHtmlPage(html);
      const chunks = chunkSections(page, {
        documentId: documentIdFor(entityRef, 'techdocs', rel),
        maxChars: MAX_CHARS,
      });
      return { rel, html, page, chunks };
    }),
  );
}

function expectPageInvariants({ page, chunks }: Parsed) {
  expectPageConsistent(page);
  expectChunkInvariants(page, chunks, MAX_CHARS);
}

/** Every id and name attribute on the page: what a section anchor must point at. */
function targets(html: string): Set<string> {
  const found = new Set<string>();
  findAll(parseDocument(html).children, e => {
    if (e.attribs.id) found.add(e.attribs.id);
    if (e.attribs.name) found.add(e.attribs.name);
    return false;
  });
  return found;
}

/** Gives every heading a permalink as MkDocs' toc extension does with `permalink: true`. */
function withHeaderlinks(html: string): string {
  return html.replace(
    /<\/h([1-6])>/g,
    '<a class="headerlink" href="#x" title="Permanent link">&para;</a></h$1>',
  );
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
const withoutNumbering = (s: string) =>
  norm(s).replace(/^((\d+|[ivxlcdm]+)\.)+\s*/, '');

describe('MkDocs user guide (TechDocs site)', () => {
  let site: string;
  let pages: Parsed[];
  beforeAll(async () => {
    site = path.join(await unpackCorpus('mkdocs-docs-en'), 'site');
    pages = await parseAll(site, 'component:default/mkdocs');
  }, 300_000);

  it('parses every page with consistent offsets, sections and chunks', () => {
    expect(pages.length).toBeGreaterThanOrEqual(19);
    for (const p of pages) expectPageInvariants(p);
    const chunks = pages.flatMap(p => p.chunks);
    expect(chunks.length).toBeGreaterThan(300);
  });

  it('covers every page the search index names', async () => {
    const index = await fs.readFile(
      path.join(site, 'search', 'search_index.json'),
      'utf8',
    );
    const listed = pageListFromSearchIndex(index);
    expect(listed.length).toBeGreaterThanOrEqual(18);
    for (const rel of listed) {
      const p = pages.find(x => x.rel === rel);
      expect(p).toBeDefined();
      expect(p!.page.title).not.toBe('');
    }
  });

  it('leaves out the material theme chrome', () => {
    for (const { page } of pages) {
      for (const chrome of [
        'Skip to content',
        'Made with',
        'Table of contents',
        'Initializing search',
      ]) {
        expect(page.text).not.toContain(chrome);
      }
    }
  });

  it('anchors sections at heading ids that exist on the page', () => {
    for (const { html, page } of pages) {
      const ids = targets(html);
      for (const s of page.sections)
        if (s.anchor) expect(ids.has(s.anchor)).toBe(true);
    }
    const theme = pages.find(
      p => p.rel === 'user-guide/choosing-your-theme/index.html',
    )!;
    expect(theme.page.title).toBe('Choosing your Theme');
    expect(
      theme.page.sections.find(s => s.anchor === 'readthedocs')!.headingPath,
    ).toEqual(['readthedocs']);
  });

  it('renders the same text whether or not headings carry ¶ permalinks', () => {
    for (const { html, page } of pages) {
      const linked = parseHtmlPage(withHeaderlinks(html));
      expect(linked.text).toBe(page.text);
      expect(linked.sections.map(s => s.anchor)).toEqual(
        page.sections.map(s => s.anchor),
      );
      for (const s of linked.sections) expect(s.heading).not.toContain('¶');
    }
  });

  it('gives the same chunk ids and hashes when parsed again', () => {
    for (const { rel, html, chunks } of pages) {
      const again = chunkSections(parseHtmlPage(html), {
        documentId: documentIdFor('component:default/mkdocs', 'techdocs', rel),
        maxChars: MAX_CHARS,
      });
      expect(again.map(c => [c.chunkId, c.contentHash])).toEqual(
        chunks.map(c => [c.chunkId, c.contentHash]),
      );
    }
  });

  it("keeps other sections' chunks when one section's text changes", () => {
    const config = pages.find(
      p => p.rel === 'user-guide/configuration/index.html',
    )!;
    const marker = 'Set the canonical URL of the site.';
    expect(config.html).toContain(marker);
    const edited = config.html.replace(
      marker,
      `${marker} An inserted sentence changes this section only.`,
    );
    const documentId = documentIdFor(
      'component:default/mkdocs',
      'techdocs',
      config.rel,
    );
    const after = chunkSections(parseHtmlPage(edited), {
      documentId,
      maxChars: MAX_CHARS,
    });
    const changed = (cs: Chunk[]) => cs.filter(c => c.anchor === 'site_url');
    const others = (cs: Chunk[]) =>
      cs
        .filter(c => c.anchor !== 'site_url')
        .map(c => [c.chunkId, c.contentHash, c.text]);
    expect(others(after)).toEqual(others(config.chunks));
    expect(changed(after)[0].chunkId).toBe(changed(config.chunks)[0].chunkId);
    expect(changed(after)[0].contentHash).not.toBe(
      changed(config.chunks)[0].contentHash,
    );
    expect(changed(after)[0].text).toContain('An inserted sentence');
  });
});

describe('Pyvec docs (Czech, TechDocs site)', () => {
  let pages: Parsed[];
  beforeAll(async () => {
    pages = await parseAll(
      path.join(await unpackCorpus('pyvec-docs-cs'), 'site'),
      'component:default/pyvec',
    );
  }, 300_000);

  it('parses every page with consistent offsets, sections and chunks', () => {
    expect(pages.length).toBeGreaterThanOrEqual(24);
    for (const p of pages) expectPageInvariants(p);
    for (const { page } of pages) {
      for (const chrome of ['Přeskočit obsah', 'Made with'])
        expect(page.text).not.toContain(chrome);
    }
  });

  it('keeps Czech dates and abbreviations inside sentences', () => {
    const grants = pages.find(p => p.rel === 'operations/grants/index.html')!;
    const dated = grants.chunks.filter(c => /\d+\. \d+\. 20\d\d/.test(c.text));
    expect(dated.length).toBeGreaterThan(0);
    for (const c of grants.chunks) {
      // A chunk never starts with the tail of a date such as "12. 2025".
      expect(c.text).not.toMatch(/^\d+\. 20\d\d/);
    }
    const bylaws = pages.find(p => p.rel === 'operations/bylaws/index.html')!;
    expect(bylaws.page.title).toBe('Stanovy Pyvec, z.s.');
    const s93 = bylaws.page.sections.find(s => s.anchor === '93')!;
    expect(s93.headingPath).toEqual(['IX. Výbor', '9.3.']);
  });
});

describe('PostgreSQL manual (DocBook)', () => {
  let root: string;
  let pages: Parsed[];
  let parseMs = 0;
  beforeAll(async () => {
    root = await unpackCorpus('postgresql-docs');
    const files = await listFiles(root, f => f.endsWith('.html'));
    const htmls = await Promise.all(
      files.map(f => fs.readFile(path.join(root, f), 'utf8')),
    );
    const started = Date.now();
    pages = files.map((rel, i) => {
      const page = parseHtmlPage(htmls[i]);
      const chunks = chunkSections(page, {
        documentId: documentIdFor(
          'component:default/postgresql',
          'techdocs',
          rel,
        ),
        maxChars: MAX_CHARS,
      });
      return { rel, html: htmls[i], page, chunks };
    });
    parseMs = Date.now() - started;
  }, 300_000);

  it('finds Storage Parameters in CREATE TABLE with its anchor', () => {
    const createTable = pages.find(p => p.rel === 'sql-createtable.html')!;
    expect(createTable.page.title).toBe('CREATE TABLE');
    const storage = createTable.page.sections.find(s =>
      s.headingPath.includes('Storage Parameters'),
    )!;
    expect(storage.anchor).toBe('SQL-CREATETABLE-STORAGE-PARAMETERS');
    expect(storage.headingPath).toEqual(['Parameters', 'Storage Parameters']);
    expect(storage.text).toContain('autovacuum_enabled');
    const chunk = createTable.chunks.find(c =>
      c.text.includes('autovacuum_enabled (boolean)'),
    )!;
    expect(chunk.sectionPath).toBe(
      'CREATE TABLE › Parameters › Storage Parameters',
    );
    expect(chunk.anchor).toBe('SQL-CREATETABLE-STORAGE-PARAMETERS');
  });

  it('parses all pages with consistent offsets, sections and chunks', () => {
    expect(pages).toHaveLength(1169);
    for (const p of pages) expectPageInvariants(p);
  });

  it('anchors every section at an id or name that exists on the page', () => {
    for (const { html, page } of pages) {
      const ids = targets(html);
      for (const s of page.sections) {
        // Only text before any heading (legalnotice.html has none) links to the top of the page.
        if (s.level > 0) expect(s.anchor).not.toBe('');
        if (s.anchor) expect(ids.has(s.anchor)).toBe(true);
      }
    }
  });

  it('leaves out navigation headers, footers and tables of contents', () => {
    for (const { page } of pages) {
      expect(page.text).not.toMatch(/^Prev\b/m);
      expect(page.text).not.toMatch(/^Table of Contents$/m);
    }
    const ddl = pages.find(p => p.rel === 'ddl.html')!;
    expect(ddl.html).toContain('Table Basics');
    expect(ddl.page.text).not.toContain('Table Basics');
    expect(ddl.page.text).toContain(
      'This chapter covers how one creates the database structures',
    );
  });

  it('reports chunk statistics', () => {
    const chunks = pages.flatMap(p => p.chunks);
    const chars = chunks.reduce((n, c) => n + c.text.length, 0);
    const stats = {
      pages: pages.length,
      pagesWithoutChunks: pages.filter(p => p.chunks.length === 0).length,
      chunks: chunks.length,
      meanChunkChars: Math.round(chars / chunks.length),
      parseAndChunkMs: parseMs,
    };
    // eslint-disable-next-line no-console
    console.info(`PostgreSQL manual: ${JSON.stringify(stats)}`);
    expect(stats.meanChunkChars).toBeGreaterThan(300);
    expect(stats.pagesWithoutChunks).toBeLessThan(50);
  });
});

describe('GIMP manual in Czech (DocBook)', () => {
  let pages: Parsed[];
  beforeAll(async () => {
    pages = await parseAll(
      await unpackCorpus('gimp-help-cs'),
      'component:default/gimp',
    );
  }, 300_000);

  it('parses all pages with consistent offsets, anchored sections and no navigation', () => {
    expect(pages.length).toBeGreaterThanOrEqual(685);
    for (const p of pages) {
      expectPageInvariants(p);
      const ids = targets(p.html);
      for (const s of p.page.sections)
        if (s.anchor) expect(ids.has(s.anchor)).toBe(true);
      expect(p.page.text).not.toContain('Report a bug in GIMP');
    }
  });

  it('renders a Czech page with its title, anchors and note', () => {
    const close = pages.find(p => p.rel === 'gimp-file-close.html')!;
    expect(close.page.title).toBe('2.19. Zavřít');
    expect(close.page.sections[0].anchor).toBe('gimp-file-close');
    expect(close.page.sections[1].headingPath).toEqual([
      '2.19.1. Activating the Command',
    ]);
    expect(close.page.text).toContain(
      'Poznámka\nAn image is only marked as clean',
    );
    expect(close.page.text).toContain(
      'nebo použitím klávesové zkratky Ctrl+W.',
    );
  });
});

describe('evaluation gold passages', () => {
  const evalDir = path.join(corporaDir(), '..', 'eval');
  const sites: Record<string, string> = {
    'postgresql-docs': '',
    'gimp-help-cs': '',
    'mkdocs-docs-en': 'site',
    'pyvec-docs-cs': 'site',
  };

  it('finds the gold heading on the gold page and the evidence inside one chunk', async () => {
    // Beside the corpora (../shared/eval): missing, this test would check nothing.
    expect([evalDir, existsSync(evalDir)]).toEqual([evalDir, true]);
    let checked = 0;
    for (const file of ['pg.dev.jsonl', 'cs.dev.jsonl', 'mkdocs.dev.jsonl']) {
      const lines = readFileSync(path.join(evalDir, file), 'utf8')
        .split('\n')
        .filter(Boolean);
      for (const item of lines.map(l => JSON.parse(l))) {
        if (!item.answerable || !(item.corpus in sites)) continue;
        const root = path.join(
          await unpackCorpus(item.corpus),
          sites[item.corpus],
        );
        let evidenceFound = false;
        for (const gold of item.gold as Array<{
          page: string;
          heading: string;
        }>) {
          let rel = gold.page;
          if (rel.endsWith('.md')) {
            const stem = rel.replace(/\.md$/, '');
            rel =
              stem === 'index'
                ? 'index.html'
                : `${stem.replace(/\/index$/, '')}/index.html`;
          }
          const page = parseHtmlPage(
            readFileSync(path.join(root, rel), 'utf8'),
          );
          const headings = [page.title, ...page.sections.map(s => s.heading)];
          const matches = (h: string) =>
            norm(h) === norm(gold.heading) ||
            (withoutNumbering(gold.heading) !== '' &&
              withoutNumbering(h) === withoutNumbering(gold.heading));
          expect({ id: item.id, found: headings.some(matches) }).toEqual({
            id: item.id,
            found: true,
          });
          const chunks = chunkSections(page, {
            documentId: 'eval',
            maxChars: MAX_CHARS,
          });
          if (
            item.evidence &&
            chunks.some(c => norm(c.text).includes(norm(item.evidence)))
          )
            evidenceFound = true;
          checked++;
        }
        if (item.evidence)
          expect({ id: item.id, evidenceFound }).toEqual({
            id: item.id,
            evidenceFound: true,
          });
      }
    }
    expect(checked).toBeGreaterThan(80);
  });
});
