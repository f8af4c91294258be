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
  /**
   * Names one build (its etag and build time); undefined when the metadata names neither. The
   * same build again means the same pages: a run need not read them.
   */
  build?: string;
  /** Page paths relative to the site root, e.g. 'user-guide/index.html'. */
  pages: string[];
}

/**
 * The entity names a TechDocs site, but none is where it should be (or it lists no pages): not
 * built yet, or the storage failed (the TechDocs publishers answer 404 to storage errors too).
 * The Ingester keeps the pages indexed before, so an outage does not empty the index.
 */
export class TechDocsSiteNotFoundError extends Error {
  name = 'TechDocsSiteNotFoundError';
}

/** Reads published TechDocs sites (through the TechDocs backend in production). */
export interface TechDocsReader {
  /**
   * undefined when the entity has no TechDocs; TechDocsSiteNotFoundError when it has, but the
   * site is not found.
   */
  getSite(entity: Entity): Promise<TechDocsSiteMetadata | undefined>;
  getPage(entity: Entity, pagePath: string): Promise<string>;
}
