import { Entity } from '@backstage/catalog-model';

/** Where the entities to index come from (the catalog in production, fixtures in tests). */
export interface EntitySource {
  /** Every entity currently in the catalog; pages through large catalogs. */
  listEntities(): AsyncIterable<Entity>;
}

export interface TechDocsSiteMetadata {
  siteName: string;
  /** Changes whenever the site is rebuilt: the revision of every page in it. */
  etag: string;
  /** Page paths relative to the site root, e.g. 'user-guide/index.html'. */
  pages: string[];
}

/** Reads published TechDocs sites (through the TechDocs backend in production). */
export interface TechDocsReader {
  /** undefined when the entity has no published site. */
  getSite(entity: Entity): Promise<TechDocsSiteMetadata | undefined>;
  getPage(entity: Entity, pagePath: string): Promise<string>;
}
