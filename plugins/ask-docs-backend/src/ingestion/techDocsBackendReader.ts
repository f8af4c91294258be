import { AuthService, DiscoveryService } from '@backstage/backend-plugin-api';
import { Entity } from '@backstage/catalog-model';
import { TECHDOCS_ANNOTATION } from '@backstage/plugin-techdocs-common';
import { ResponseError } from '@backstage/errors';
import {
  maxMarkupChars,
  pageListFromMetadata,
  pageListFromSearchIndex,
} from './parsing';
import {
  encodeSitePagePath,
  resolveSitePagePath,
  siteFileUrl,
} from './sitePagePath';
import {
  TechDocsReader,
  TechDocsSiteMetadata,
  TechDocsSiteNotFoundError,
} from './sources';
import { techDocsTriplet } from './entityRow';

// A UTF-16 unit is at most 3 bytes of UTF-8: a page read to maxMarkupChars × 3 bytes gives the
// parser all it would parse.
const MAX_UTF8_BYTES_PER_CHAR = 3;
// A page list of 100k paths is a few MB. MkDocs' search index holds every page's text too: a
// site too big for this has to name its pages in the metadata's `files` (any recent publisher).
const MAX_METADATA_BYTES = 32 * 1024 * 1024;
const MAX_SEARCH_INDEX_BYTES = 128 * 1024 * 1024;

export interface TechDocsBackendReaderOptions {
  timeoutMs?: number;
  /** askDocs.ingestion.maxPageChars: a page's body is read only as far as the parser uses it. */
  maxPageChars?: number;
  /**
   * TechDocs' own `techdocs.legacyUseCaseSensitiveTripletPaths`: sites are kept under the
   * entity's namespace, kind and name as spelled, not lower-cased (techDocsTriplet).
   */
  legacyUseCaseSensitiveTripletPaths?: boolean;
  /** The largest search index read for a site whose metadata lists no `files` (128 MB). */
  maxSearchIndexBytes?: number;
}

/**
 * Reads rendered TechDocs through the TechDocs backend's static route, so whatever publisher
 * (local, S3, GCS, ...) the portal uses is supported without configuring it twice.
 */
export class TechDocsBackendReader implements TechDocsReader {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly auth: AuthService,
    private readonly options: TechDocsBackendReaderOptions = {},
  ) {}

  async getSite(entity: Entity): Promise<TechDocsSiteMetadata | undefined> {
    if (!entity.metadata.annotations?.[TECHDOCS_ANNOTATION]) return undefined;
    const metadataRes = await this.fetch(entity, 'techdocs_metadata.json');
    if (metadataRes.status === 404) {
      await metadataRes.body?.cancel();
      throw new TechDocsSiteNotFoundError(
        'TechDocs site not found (404: not built yet, or the TechDocs storage failed)',
      );
    }
    if (!metadataRes.ok)
      throw await ResponseError.fromResponse(metadataRes as any);
    const metadata = await readJson(
      metadataRes,
      MAX_METADATA_BYTES,
      'techdocs_metadata.json',
    );
    let pages = pageListFromMetadata(metadata);
    if (pages.length === 0) {
      // Older publishers wrote no `files` list; mkdocs' search index names every page too.
      // Unreadable, it lists no pages: an error, so the pages indexed before are kept (a 404
      // as for the site: no error where nothing was indexed, e.g. search turned off).
      const indexRes = await this.fetch(entity, 'search/search_index.json');
      if (indexRes.status === 404) {
        await indexRes.body?.cancel();
        throw new TechDocsSiteNotFoundError(
          'TechDocs site lists no pages (no files in its metadata, search index not found)',
        );
      }
      if (!indexRes.ok) throw await ResponseError.fromResponse(indexRes as any);
      pages = pageListFromSearchIndex(
        await readJson(
          indexRes,
          this.options.maxSearchIndexBytes ?? MAX_SEARCH_INDEX_BYTES,
          'search_index.json',
        ),
      );
      // A site of no pages is a broken build, not a reason to delete the pages indexed before.
      if (pages.length === 0)
        throw new TechDocsSiteNotFoundError(
          'TechDocs site lists no pages (no files in its metadata or its search index)',
        );
    }
    return {
      siteName: String(
        metadata.site_name ?? entity.metadata.title ?? entity.metadata.name,
      ),
      etag: String(metadata.etag ?? metadata.build_timestamp ?? ''),
      // The etag is the source's revision; a rebuild of the same source (another generator
      // version) keeps it, but not its build time.
      ...(metadata.etag || metadata.build_timestamp
        ? {
            build: JSON.stringify([
              metadata.etag ?? null,
              metadata.build_timestamp ?? null,
            ]),
          }
        : {}),
      pages,
    };
  }

  async getPage(entity: Entity, pagePath: string): Promise<string> {
    const res = await this.fetch(entity, pagePath);
    if (!res.ok) throw await ResponseError.fromResponse(res as any);
    return readText(
      res,
      maxMarkupChars(this.options.maxPageChars) * MAX_UTF8_BYTES_PER_CHAR,
    );
  }

  /** Every file of the site, page or metadata, is fetched here and only from inside the site. */
  private async fetch(entity: Entity, file: string): Promise<Response> {
    const path = encodeSitePagePath(resolveSitePagePath(file));
    const base = await this.discovery.getBaseUrl('techdocs');
    const { token } = await this.auth.getPluginRequestToken({
      onBehalfOf: await this.auth.getOwnServiceCredentials(),
      targetPluginId: 'techdocs',
    });
    // Where TechDocs keeps the site: the local publisher redirects any other spelling, and
    // redirects are not followed.
    const triplet = techDocsTriplet(
      { ...entity.metadata, kind: entity.kind },
      this.options.legacyUseCaseSensitiveTripletPaths,
    );
    // The catalog does not allow these, but a dot-only name would move the site root itself.
    if (triplet.some(part => /^\.*$/.test(part))) {
      throw new Error(`not a TechDocs site name: ${triplet.join('/')}`);
    }
    const siteRoot = `${base}/static/docs/${triplet
      .map(encodeURIComponent)
      .join('/')}/`;
    // Checked again after URL parsing: the request must stay on the TechDocs origin, in this site.
    const url = siteFileUrl(siteRoot, path, file);
    const res = await fetch(url, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      // A redirect could point at another entity's site; the TechDocs backend sends none for
      // files under the path it keeps the site at.
      redirect: 'manual',
    });
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      const location = res.headers.get('location') ?? '(no location)';
      // A failed read (a proxy's login redirect, say), not a bad path: what was indexed stays.
      throw new Error(
        `TechDocs redirected ${file} to ${location}, not followed`,
      );
    }
    return res;
  }
}

/**
 * The body's bytes, no further than `maxBytes`; `cut` when it had more (the rest is not read).
 * What was read stands even when the cancel of the rest fails.
 */
async function readUpTo(
  res: Response,
  maxBytes: number,
): Promise<{ data: Buffer; cut: boolean }> {
  if (!res.body) return { data: Buffer.alloc(0), cut: false };
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { data: Buffer.concat(parts), cut: false };
    const room = maxBytes - bytes;
    if (value.byteLength > room) {
      parts.push(value.subarray(0, room));
      await reader.cancel().catch(() => {});
      return { data: Buffer.concat(parts), cut: true };
    }
    parts.push(value);
    bytes += value.byteLength;
  }
}

/**
 * The body as UTF-8 text, as Response#text() reads it, but no further than `maxBytes`: the whole
 * of a huge page would be held in memory, only for the parser to cut it. What is read is all the
 * parser would use, so the page is indexed as before, cut and noted as truncated. A character
 * split at the cut decodes to U+FFFD, past where the parser cuts anyway.
 */
async function readText(res: Response, maxBytes: number): Promise<string> {
  return new TextDecoder().decode((await readUpTo(res, maxBytes)).data);
}

/** A JSON file of at most `maxBytes`, else an error: a file cut short would not parse anyway. */
async function readJson(
  res: Response,
  maxBytes: number,
  what: string,
): Promise<any> {
  const tooLarge = () =>
    new Error(
      `TechDocs ${what} is larger than ${maxBytes} bytes; not read (a site that large ` +
        "lists its pages in the metadata's files)",
    );
  // Announced: refused without a download (the next run would fetch it again).
  if (Number(res.headers.get('content-length')) > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const { data, cut } = await readUpTo(res, maxBytes);
  if (cut) throw tooLarge();
  return JSON.parse(data.toString('utf8'));
}
