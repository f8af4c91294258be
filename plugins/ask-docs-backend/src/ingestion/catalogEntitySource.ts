import { AuthService } from '@backstage/backend-plugin-api';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import { CatalogService } from '@backstage/plugin-catalog-node';
import { EntitySource } from './sources';

const PAGE_SIZE = 200;

/**
 * How old a page's entities may be when handed out. An ingestion run works through a page one
 * entity at a time, which can take minutes; visibility attributes written from an older read
 * would undo a change the attribute sync (every 30 s by default) has not seen yet.
 */
export const MAX_LISTING_AGE_MS = 30_000;

/**
 * All catalog entities, read with the plugin's own service credentials; only `fields` of each
 * when given (the visibility sync asks for what visibility needs). The rest of a page older than
 * `maxAgeMs` is read again in one request before it is handed out; entities deleted meanwhile
 * are left out.
 */
export class CatalogEntitySource implements EntitySource {
  constructor(
    private readonly catalog: CatalogService,
    private readonly auth: AuthService,
    private readonly fields?: string[],
    private readonly options: { maxAgeMs?: number; now?: () => number } = {},
  ) {}

  async *listEntities(): AsyncIterable<Entity> {
    const credentials = await this.auth.getOwnServiceCredentials();
    const now = this.options.now ?? Date.now;
    const maxAge = this.options.maxAgeMs ?? MAX_LISTING_AGE_MS;
    let cursor: string | undefined;
    do {
      const response = await this.catalog.queryEntities(
        cursor
          ? { cursor, limit: PAGE_SIZE, fields: this.fields }
          : { limit: PAGE_SIZE, fields: this.fields },
        { credentials },
      );
      let items = response.items;
      let readAt = now();
      for (let i = 0; i < items.length; i++) {
        if (now() - readAt > maxAge) {
          const { items: fresh } = await this.catalog.getEntitiesByRefs(
            {
              entityRefs: items.slice(i).map(e => stringifyEntityRef(e)),
              fields: this.fields,
            },
            { credentials },
          );
          readAt = now();
          items = [
            ...items.slice(0, i),
            ...fresh.filter((e): e is Entity => Boolean(e)),
          ];
          if (i >= items.length) break;
        }
        yield items[i];
      }
      cursor = response.pageInfo.nextCursor;
    } while (cursor);
  }
}
