/*
 * Which files of a published TechDocs site are documentation pages, and how TechDocs addresses
 * them. Page paths are relative to the site root and name the HTML file
 * ("user-guide/cli/index.html").
 */

// Top-level folders of a built site that hold theme assets, not pages. Not search/: MkDocs writes
// only search_index.json and scripts there (no HTML), so its HTML files are the docs' own pages
// (docs/search/*.md).
const NON_PAGE_DIRS = new Set(['assets', '_static']);

function parseJson(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input);
  } catch {
    return undefined;
  }
}

/*
 * Page lists keep each path as the site wrote it (trimmed, URLs decoded once): they come from the
 * site itself, so resolveSitePagePath judges them when they are read, and a path that would leave
 * the site is refused and reported instead of being rewritten into some other path here.
 */

/** For display only, of paths already accepted by resolveSitePagePath. */
function normalizePath(path: string): string {
  return path
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(\.\/|\/)+/, '');
}

/** MkDocs percent-encodes its URLs ('n%C3%A1vod/'); files are named by the decoded text. */
function decodeUrlPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path; // malformed: left encoded, and refused when read
  }
}

function isDocumentationPage(path: string): boolean {
  if (!/\.html?$/i.test(path)) return false;
  const segments = path.split('/');
  if (/^404\.html?$/i.test(segments[segments.length - 1])) return false;
  return segments.length === 1 || !NON_PAGE_DIRS.has(segments[0].toLowerCase());
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}

/** Pages listed in techdocs_metadata.json `files`: HTML only, without 404.html and assets. */
export function pageListFromMetadata(metadataJson: unknown): string[] {
  const metadata = parseJson(metadataJson) as { files?: unknown } | undefined;
  const files = metadata && Array.isArray(metadata.files) ? metadata.files : [];
  return unique(
    files
      .filter((f): f is string => typeof f === 'string')
      .map(f => f.trim())
      .filter(isDocumentationPage),
  );
}

/**
 * Pages named by an MkDocs search_index.json: each `docs[].location` ("user-guide/cli/#options")
 * without its fragment, as the HTML file the site serves for it.
 */
export function pageListFromSearchIndex(searchIndexJson: unknown): string[] {
  const index = parseJson(searchIndexJson) as { docs?: unknown } | undefined;
  const docs = index && Array.isArray(index.docs) ? index.docs : [];
  const pages: string[] = [];
  for (const doc of docs) {
    const location = (doc as { location?: unknown } | null)?.location;
    if (typeof location !== 'string') continue;
    const path = decodeUrlPath(location.split('#')[0].split('?')[0].trim());
    let page: string;
    if (path === '') page = 'index.html';
    else if (path.endsWith('/')) page = `${path}index.html`;
    else if (/\.html?$/i.test(path)) page = path;
    else page = `${path}/index.html`;
    if (isDocumentationPage(page)) pages.push(page);
  }
  return unique(pages);
}

/**
 * The path TechDocs shows for a page: directory URLs for index.html ('user-guide/x/'), '' for the
 * home page.
 */
export function pageUrlPath(pagePath: string): string {
  const path = normalizePath(pagePath);
  if (/^index\.html?$/i.test(path)) return '';
  const m = /^(.*\/)index\.html?$/i.exec(path);
  return m ? m[1] : path;
}
