import { AuthService, DiscoveryService } from '@backstage/backend-plugin-api';
import { Entity } from '@backstage/catalog-model';
import { ResponseError } from '@backstage/errors';
import { pageListFromMetadata, pageListFromSearchIndex } from './parsing';
import { TechDocsReader, TechDocsSiteMetadata } from './sources';

export const TECHDOCS_REF_ANNOTATION = 'backstage.io/techdocs-ref';

/**
 * Reads rendered TechDocs through the TechDocs backend's static route, so whatever publisher
 * (local, S3, GCS, ...) the portal uses is supported without configuring it twice.
 */
export class TechDocsBackendReader implements TechDocsReader {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly auth: AuthService,
    private readonly options: { timeoutMs?: number } = {},
  ) {}

  async getSite(entity: Entity): Promise<TechDocsSiteMetadata | undefined> {
    if (!entity.metadata.annotations?.[TECHDOCS_REF_ANNOTATION]) return undefined;
    const metadataRes = await this.fetch(entity, 'techdocs_metadata.json');
    if (metadataRes.status === 404) return undefined;
    if (!metadataRes.ok) throw await ResponseError.fromResponse(metadataRes as any);
    const metadata = await metadataRes.json();
    let pages = pageListFromMetadata(metadata);
    if (pages.length === 0) {
      // Older publishers wrote no `files` list; mkdocs' search index names every page too.
      const indexRes = await this.fetch(entity, 'search/search_index.json');
      if (indexRes.ok) pages = pageListFromSearchIndex(await indexRes.json());
    }
    return {
      siteName: String(metadata.site_name ?? entity.metadata.title ?? entity.metadata.name),
      etag: String(metadata.etag ?? metadata.build_timestamp ?? ''),
      pages,
    };
  }

  async getPage(entity: Entity, pagePath: string): Promise<string> {
    const res = await this.fetch(entity, pagePath);
    if (!res.ok) throw await ResponseError.fromResponse(res as any);
    return res.text();
  }

  private async fetch(entity: Entity, file: string): Promise<Response> {
    const base = await this.discovery.getBaseUrl('techdocs');
    const { token } = await this.auth.getPluginRequestToken({
      onBehalfOf: await this.auth.getOwnServiceCredentials(),
      targetPluginId: 'techdocs',
    });
    const ns = encodeURIComponent(entity.metadata.namespace ?? 'default');
    const kind = encodeURIComponent(entity.kind.toLocaleLowerCase('en-US'));
    const name = encodeURIComponent(entity.metadata.name);
    const path = file.split('/').map(encodeURIComponent).join('/');
    return fetch(`${base}/static/docs/${ns}/${kind}/${name}/${path}`, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
    });
  }
}
