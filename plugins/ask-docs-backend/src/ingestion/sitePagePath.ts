/*
 * Confines TechDocs page paths to their entity's site. Page lists come from the site itself
 * (techdocs_metadata.json `files`, the MkDocs search index), so whoever publishes a site controls
 * them: a path that leaves the site would index another entity's pages under this entity, with
 * this entity's visibility. Every reader resolves page paths through this module, and anything
 * that is not plainly a file inside the site is refused rather than repaired.
 */

/** A page path that is not plainly inside its site; the page is not fetched. */
export class RefusedPagePathError extends Error {
  readonly name = 'RefusedPagePathError';

  constructor(readonly pagePath: string, readonly reason: string) {
    super(`refused page path "${printablePagePath(pagePath)}": ${reason}`);
  }
}

const MAX_PAGE_PATH_CHARS = 1024;

/**
 * The path with control characters escaped and its length capped, safe for logs and for the
 * run record (Postgres jsonb rejects NUL).
 */
export function printablePagePath(pagePath: string): string {
  const escaped = JSON.stringify(String(pagePath)).slice(1, -1);
  return escaped.length > 200 ? `${escaped.slice(0, 200)}…` : escaped;
}

/** Why a segment is not a plain file or folder name, or undefined when it is. */
function segmentRefusal(segment: string): string | undefined {
  if (segment === '') return 'empty path segment';
  if (/^[.\s]+$/.test(segment)) return `"${segment}" segment`;
  // Windows drops trailing dots and spaces ("..." and ".. " become ".."): ambiguous.
  if (/[.\s]$/.test(segment) || /^\s/.test(segment))
    return 'segment starts or ends ambiguously';
  return undefined;
}

function refusal(pagePath: unknown): string | undefined {
  if (typeof pagePath !== 'string' || pagePath === '')
    return 'empty or not a string';
  if (pagePath.length > MAX_PAGE_PATH_CHARS) return 'too long';
  if (/\p{Cc}/u.test(pagePath)) return 'control character';
  if (pagePath.includes('\\')) return 'backslash';
  if (/%[0-9a-f]{2}/i.test(pagePath)) return 'percent-encoded characters';
  if (pagePath.startsWith('/')) return 'absolute path';
  // A scheme ("http:"), a drive ("C:"), an NTFS stream ("a.html:x"): none is a site file.
  if (pagePath.includes(':')) return 'colon (URL scheme or drive)';
  if (/[?#]/.test(pagePath)) return 'query or fragment';
  // Compatibility forms ("．．" is NFKC "..") must not become dot segments anywhere downstream.
  for (const form of new Set([pagePath, pagePath.normalize('NFKC')])) {
    for (const segment of form.split('/')) {
      const why = segmentRefusal(segment);
      if (why) return why;
    }
  }
  return undefined;
}

/** Percent-encodes each segment of an accepted page path for a URL. */
export function encodeSitePagePath(pagePath: string): string {
  return pagePath.split('/').map(encodeURIComponent).join('/');
}

/**
 * Resolves a page path (relative to the site root, '/'-separated, e.g. 'guide/cli/index.html')
 * against its site: returns it when it names a file inside the site, otherwise throws
 * RefusedPagePathError. Nothing is repaired: '..', '.', encoded forms, backslashes, absolute
 * paths, schemes, control characters, queries and fragments are all refused.
 */
export function resolveSitePagePath(pagePath: string): string {
  const why = refusal(pagePath);
  if (why) throw new RefusedPagePathError(String(pagePath), why);
  // The same resolution a URL parser does, as a second opinion on the checks above.
  const root = new URL('http://site.invalid/site/');
  const resolved = new URL(encodeSitePagePath(pagePath), root);
  if (
    resolved.origin !== root.origin ||
    !resolved.pathname.startsWith(root.pathname)
  ) {
    throw new RefusedPagePathError(pagePath, 'resolves outside the site');
  }
  return pagePath;
}

/**
 * The URL of a file of a site served under `siteRoot`, checked after URL parsing: same origin,
 * path still under the site root, no query or fragment. `encodedPath` is an accepted page path
 * (or a fixed file name such as 'techdocs_metadata.json') encoded with encodeSitePagePath.
 */
export function siteFileUrl(
  siteRoot: string,
  encodedPath: string,
  pagePath = encodedPath,
): URL {
  const root = new URL(siteRoot.endsWith('/') ? siteRoot : `${siteRoot}/`);
  // Appended as text, not resolved as a reference, so '//host/x' or 'http:x' stay path text.
  const url = new URL(root.href + encodedPath);
  const inside =
    url.origin === root.origin &&
    url.pathname.startsWith(root.pathname) &&
    url.pathname.length > root.pathname.length &&
    url.search === '' &&
    url.hash === '';
  if (!inside) {
    throw new RefusedPagePathError(
      pagePath,
      `URL ${url.href} leaves the site ${root.href}`,
    );
  }
  return url;
}
