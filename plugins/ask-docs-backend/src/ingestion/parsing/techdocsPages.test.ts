import {
  pageListFromMetadata,
  pageListFromSearchIndex,
  pageUrlPath,
} from './techdocsPages';

describe('pageListFromMetadata', () => {
  it('keeps HTML pages and drops 404, assets and non-HTML files', () => {
    const metadata = {
      site_name: 'Docs',
      etag: 'abc',
      files: [
        'index.html',
        'user-guide/index.html',
        'user-guide/cli/index.html',
        '404.html',
        'search/search_index.json',
        'search/lunr.js',
        'assets/javascripts/bundle.js',
        'assets/partials/page.html',
        'sitemap.xml.gz',
        'img/logo.png',
        'guides/js/index.html',
        'index.html',
      ],
    };
    expect(pageListFromMetadata(metadata)).toEqual([
      'index.html',
      'user-guide/index.html',
      'user-guide/cli/index.html',
      'guides/js/index.html',
    ]);
    expect(pageListFromMetadata(JSON.stringify(metadata))).toEqual(
      pageListFromMetadata(metadata),
    );
  });

  it('returns nothing for malformed metadata', () => {
    expect(pageListFromMetadata('not json')).toEqual([]);
    expect(pageListFromMetadata({ files: 'index.html' })).toEqual([]);
    expect(pageListFromMetadata(null)).toEqual([]);
    expect(pageListFromMetadata({ files: [1, null, 'a.html'] })).toEqual([
      'a.html',
    ]);
  });

  it('keeps pages of a docs/search/ folder: MkDocs writes no HTML of its own there', () => {
    const files = [
      'search/index.html',
      'search/indexing/index.html',
      'search/search_index.json',
      'search/main.js',
      'search/worker.js',
      'assets/partials/page.html',
    ];
    expect(pageListFromMetadata({ files })).toEqual([
      'search/index.html',
      'search/indexing/index.html',
    ]);
    const docs = [
      { location: 'search/indexing/#ranking' },
      { location: 'search/' },
    ];
    expect(pageListFromSearchIndex({ docs })).toEqual([
      'search/indexing/index.html',
      'search/index.html',
    ]);
  });
});

describe('pageListFromSearchIndex', () => {
  it('maps locations to the HTML files that serve them, once each', () => {
    const index = {
      docs: [
        { location: '', title: 'Home' },
        { location: '#features', title: 'Features' },
        { location: 'user-guide/choosing-your-theme/', title: 'Theme' },
        { location: 'user-guide/choosing-your-theme/#mkdocs', title: 'mkdocs' },
        { location: 'about.html#x', title: 'flat' },
        { location: 'old/page', title: 'no slash' },
        { location: '404.html' },
        { title: 'no location' },
      ],
    };
    expect(pageListFromSearchIndex(index)).toEqual([
      'index.html',
      'user-guide/choosing-your-theme/index.html',
      'about.html',
      'old/page/index.html',
    ]);
  });

  it('returns nothing for malformed input', () => {
    expect(pageListFromSearchIndex('{')).toEqual([]);
    expect(pageListFromSearchIndex({ docs: {} })).toEqual([]);
  });
});

describe('page lists from a hostile site', () => {
  // The site writes its own lists: paths are passed on as written, for resolveSitePagePath to
  // refuse and report, never rewritten into a path that would then be accepted.
  it('does not turn backslashes, leading slashes or dot prefixes into plain paths', () => {
    const files = [
      '..\\restricted\\runbook\\index.html',
      '/restricted/index.html',
      './x.html',
    ];
    expect(pageListFromMetadata({ files })).toEqual(files);
    expect(pageListFromMetadata({ files: ['a\\b.html'] })).not.toContain(
      'a/b.html',
    );
  });

  it('decodes search index locations once, as MkDocs encodes its URLs', () => {
    const pages = pageListFromSearchIndex({
      docs: [
        { location: 'n%C3%A1vod/' },
        { location: '%2e%2e/restricted/runbook/' },
        { location: '%252e%252e/restricted/runbook/' },
        { location: '..%5crestricted%5crunbook%5cindex.html' },
        { location: '%E0%A4%A/' },
      ],
    });
    expect(pages).toEqual([
      'návod/index.html',
      '../restricted/runbook/index.html',
      '%2e%2e/restricted/runbook/index.html',
      '..\\restricted\\runbook\\index.html',
      '%E0%A4%A/index.html',
    ]);
  });
});

describe('pageUrlPath', () => {
  it('uses directory URLs for index pages and keeps other files', () => {
    expect(pageUrlPath('user-guide/x/index.html')).toBe('user-guide/x/');
    expect(pageUrlPath('index.html')).toBe('');
    expect(pageUrlPath('sql-createtable.html')).toBe('sql-createtable.html');
    expect(pageUrlPath('/a/index.html')).toBe('a/');
    expect(pageUrlPath('a/myindex.html')).toBe('a/myindex.html');
  });

  it('round-trips with the search index locations', () => {
    for (const location of ['', 'user-guide/', 'user-guide/cli/']) {
      const [page] = pageListFromSearchIndex({ docs: [{ location }] });
      expect(pageUrlPath(page)).toBe(location);
    }
  });
});
