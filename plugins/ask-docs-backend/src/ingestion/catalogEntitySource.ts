import { AuthService } from '@backstage/backend-plugin-api';
import { Entity } from '@backstage/catalog-model';
import { CatalogService } from '@backstage/plugin-catalog-node';
import { EntitySource } from './sources';

const PAGE_SIZE = 200;

/**
 * All catalog entities, read with the plugin's own service credentials; only `fields` of each
 * when given (the visibility sync asks for what visibility needs).
 */
export class CatalogEntitySource implements EntitySource {
  constructor(
    private readonly catalog: CatalogService,
    private readonly auth: AuthService,
    private readonly fields?: string[],
  ) {}

  async *listEntities(): AsyncIterable<Entity> {
    const credentials = await this.auth.getOwnServiceCredentials();
    let cursor: string | undefined;
    do {
      const response = await this.catalog.queryEntities(
        cursor
          ? { cursor, limit: PAGE_SIZE, fields: this.fields }
          : { limit: PAGE_SIZE, fields: this.fields },
        { credentials },
      );
      for (const entity of response.items) yield entity;
      cursor = response.pageInfo.nextCursor;
    } while (cursor);
  }

  async getEntity(entityRef: string): Promise<Entity | undefined> {
    const credentials = await this.auth.getOwnServiceCredentials();
    return this.catalog.getEntityByRef(entityRef, { credentials });
  }
}
