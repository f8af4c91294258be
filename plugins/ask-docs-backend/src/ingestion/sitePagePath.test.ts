import {
  encodeSitePagePath,
  printablePagePath,
  RefusedPagePathError,
  resolveSitePagePath,
  siteFileUrl,
} from './sitePagePath';

const refusedBy = (pagePath: string): string | undefined => {
  try {
    resolveSitePagePath(pagePath);
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(RefusedPagePathError);
    return (e as RefusedPagePathError).reason;
  }
};

describe('resolveSitePagePath', () => {
  it.each([
    'index.html',
    'user-guide/index.html',
    'user-guide/cli/options/index.html',
    'sql-createtable.html',
    'návody/úvod/index.html',
    '日本語/ページ.html',
    'a b/c d.html',
    '.well-known/page.html',
    'v1.2/index.html',
    '100% done.html',
    'techdocs_metadata.json',
    'search/search_index.json',
  ])('accepts %j', pagePath => {
    expect(resolveSitePagePath(pagePath)).toBe(pagePath);
  });

  it.each([
    // dot segments, plain and compatibility forms
    ['../restricted/runbook/index.html', 'segment'],
    ['a/../../component/restricted/x.html', 'segment'],
    ['./index.html', 'segment'],
    ['a/./b.html', 'segment'],
    ['a/..', 'segment'],
    ['..', 'segment'],
    ['.../x.html', 'segment'],
    ['.. /x.html', 'segment'],
    ['a/x.html.', 'ambiguously'],
    ['．．/restricted/index.html', 'segment'],
    // percent-encoded forms, single and double
    ['%2e%2e/restricted/runbook/index.html', 'percent'],
    ['%2E./restricted/index.html', 'percent'],
    ['.%2e/restricted/index.html', 'percent'],
    ['..%2frestricted%2findex.html', 'percent'],
    ['..%2Frestricted/index.html', 'percent'],
    ['..%5crestricted%5cindex.html', 'percent'],
    ['%252e%252e/restricted/index.html', 'percent'],
    ['a%00.html', 'percent'],
    // backslashes
    ['..\\restricted\\runbook\\index.html', 'backslash'],
    ['a\\b.html', 'backslash'],
    // absolute paths, hosts, drives, schemes
    ['/static/docs/default/component/restricted/index.html', 'absolute'],
    ['//evil.example/x.html', 'absolute'],
    ['C:\\site\\x.html', 'backslash'],
    ['C:/site/x.html', 'colon'],
    ['http://evil.example/x.html', 'colon'],
    ['file:///etc/passwd', 'colon'],
    ['javascript:alert(1)', 'colon'],
    ['index.html:stream', 'colon'],
    // control characters
    ['a\u0000.html', 'control'],
    ['a\n../b.html', 'control'],
    ['a\u007f.html', 'control'],
    ['a\u0085.html', 'control'],
    // query and fragment leftovers
    ['index.html?x=../../y', 'query'],
    ['index.html#top', 'query'],
    // empty segments and nothing at all
    ['a//b.html', 'empty'],
    ['a/', 'empty'],
    ['', 'empty'],
    [`${'a/'.repeat(600)}x.html`, 'too long'],
  ])('refuses %j', (pagePath, reason) => {
    expect(refusedBy(pagePath)).toContain(reason);
  });

  it('refuses values that are not strings', () => {
    expect(refusedBy(undefined as unknown as string)).toBeDefined();
    expect(refusedBy(42 as unknown as string)).toBeDefined();
  });

  it('names the path printably in the error', () => {
    expect(() => resolveSitePagePath('a\u0000/../b')).toThrow(
      'refused page path "a\\u0000/../b"',
    );
    expect(printablePagePath('x'.repeat(500))).toHaveLength(201);
  });
});

describe('siteFileUrl', () => {
  const root =
    'http://techdocs.test:7007/api/techdocs/static/docs/default/component/public/';

  it('builds URLs inside the site', () => {
    const url = siteFileUrl(root, encodeSitePagePath('návody/a b.html'));
    expect(url.href).toBe(`${root}n%C3%A1vody/a%20b.html`);
    expect(siteFileUrl(root.slice(0, -1), 'index.html').href).toBe(
      `${root}index.html`,
    );
  });

  // Defence in depth: whatever slipped past resolveSitePagePath is caught after URL parsing.
  it.each([
    '../restricted/runbook/index.html',
    '%2e%2e/restricted/runbook/index.html',
    '.%2E/restricted/index.html',
    'a/../../restricted/index.html',
    '..',
    '',
    'index.html?x',
    'index.html#x',
  ])('refuses %j once parsed', encodedPath => {
    expect(() => siteFileUrl(root, encodedPath)).toThrow(RefusedPagePathError);
  });

  it('keeps host-like or scheme-like text on the TechDocs origin, inside the site', () => {
    for (const text of ['//evil.example/x', 'http://evil.example/x']) {
      const url = siteFileUrl(root, text);
      expect(url.origin).toBe('http://techdocs.test:7007');
      expect(url.pathname.startsWith(new URL(root).pathname)).toBe(true);
    }
  });
});
