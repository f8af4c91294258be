/*
 * TechDocs and catalog stand-ins over folders of built HTML, so the evaluation and benchmark
 * scripts can run the real Ingester on the shared corpora without a TechDocs backend.
 */
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import crypto from 'crypto';
import fs from 'fs';
import path from 'path';
import {
  EntitySource,
  TechDocsReader,
  TechDocsSiteMetadata,
} from '../../plugins/ask-docs-backend/src/ingestion/sources';
import { pageListFromMetadata } from '../../plugins/ask-docs-backend/src/ingestion/parsing';
import {
  RefusedPagePathError,
  resolveSitePagePath,
} from '../../plugins/ask-docs-backend/src/ingestion/sitePagePath';
import { unpackCorpus } from '../../plugins/ask-docs-backend/src/ingestion/parsing/testUtils';
import {
  catalogComponent,
  ownedByRelations,
} from '../../plugins/ask-docs-backend/src/testUtils/catalogComponent';

export { ownedByRelations };
import { listFiles } from './techdocsSite';

/** One published site: a folder of HTML, optionally only some of its pages. */
export interface FileSite {
  dir: string;
  siteName: string;
  /** Page paths relative to `dir`; default: every documentation page in it. */
  pages?: string[];
}

/**
 * Documentation pages of a built site folder, as TechDocs would list them (no 404, assets, search).
 */
export function sitePages(dir: string): string[] {
  return pageListFromMetadata({ files: listFiles(dir) }).sort();
}

/** Reads sites from disk, keyed by entity ref. The etag is a hash of the served pages' content. */
export class FileTechDocsReader implements TechDocsReader {
  private readonly sites = new Map<
    string,
    FileSite & { pages: string[]; etag?: string }
  >();

  constructor(sites: Record<string, FileSite> = {}) {
    for (const [ref, site] of Object.entries(sites)) this.add(ref, site);
  }

  add(entityRef: string, site: FileSite): void {
    this.sites.set(entityRef.toLocaleLowerCase('en-US'), {
      ...site,
      pages: site.pages ?? sitePages(site.dir),
    });
  }

  async getSite(entity: Entity): Promise<TechDocsSiteMetadata | undefined> {
    const site = this.sites.get(
      stringifyEntityRef(entity).toLocaleLowerCase('en-US'),
    );
    if (!site) return undefined;
    if (!site.etag) {
      const hash = crypto.createHash('sha256');
      for (const p of site.pages) {
        hash.update(p);
        // A refused page has no content here: the Ingester reports it when it asks for it.
        const file = await siteFile(site.dir, p).catch(() => undefined);
        if (file) hash.update(await fs.promises.readFile(file));
      }
      site.etag = hash.digest('hex').slice(0, 40);
    }
    return { siteName: site.siteName, etag: site.etag, pages: [...site.pages] };
  }

  async getPage(entity: Entity, pagePath: string): Promise<string> {
    const site = this.sites.get(
      stringifyEntityRef(entity).toLocaleLowerCase('en-US'),
    );
    if (!site || !site.pages.includes(pagePath))
      throw new Error(`No page ${pagePath} for ${stringifyEntityRef(entity)}`);
    return fs.promises.readFile(await siteFile(site.dir, pagePath), 'utf8');
  }
}

/**
 * The real path of a page inside a site folder, as the TechDocs local publisher would serve it:
 * the page path must be accepted by resolveSitePagePath, and symbolic links must not lead out of
 * the folder (else another entity's pages would be indexed under this one).
 */
export async function siteFile(dir: string, pagePath: string): Promise<string> {
  const root = await fs.promises.realpath(dir);
  const file = await fs.promises.realpath(
    path.join(root, resolveSitePagePath(pagePath)),
  );
  const relative = path.relative(root, file);
  if (
    relative === '' ||
    relative.split(path.sep)[0] === '..' ||
    path.isAbsolute(relative)
  ) {
    throw new RefusedPagePathError(
      pagePath,
      'symbolic link resolves outside the site',
    );
  }
  return file;
}

/** A fixed list of entities. */
export class StaticEntitySource implements EntitySource {
  constructor(readonly entities: Entity[]) {}

  async *listEntities(): AsyncIterable<Entity> {
    yield* this.entities;
  }
}

/** An entity as the catalog serves it after processing: spec.owner resolved to a relation. */
export function withOwnerRelations(entity: Entity): Entity {
  const namespace = entity.metadata.namespace ?? 'default';
  return {
    ...entity,
    relations: [
      ...(entity.relations ?? []),
      ...ownedByRelations(entity.spec?.owner, namespace),
    ],
  };
}

/** A documentation Component as the catalog would hold it. */
export function docsComponent(
  name: string,
  options: {
    title?: string;
    owner?: string;
    description?: string;
    tags?: string[];
  } = {},
): Entity {
  return catalogComponent(name, {
    owner: options.owner ?? 'group:default/docs',
    type: 'documentation',
    title: options.title ?? name,
    description: options.description,
    tags: options.tags ?? [],
    annotations: { 'backstage.io/techdocs-ref': 'dir:.' },
  });
}

export interface CorpusSite {
  name: string;
  /** Unpacked archive root. */
  root: string;
  /** The built HTML: the root for flat HTML manuals, `site/` for MkDocs projects. */
  siteDir: string;
  form: 'html' | 'mkdocs';
  pages: string[];
}

/** Unpacks a shared corpus (cached under os.tmpdir()) and finds its built HTML. */
export async function corpusSite(name: string): Promise<CorpusSite> {
  const root = await unpackCorpus(name);
  const mkdocs =
    fs.existsSync(path.join(root, 'mkdocs.yml')) &&
    fs.existsSync(path.join(root, 'site'));
  const siteDir = mkdocs ? path.join(root, 'site') : root;
  return {
    name,
    root,
    siteDir,
    form: mkdocs ? 'mkdocs' : 'html',
    pages: sitePages(siteDir),
  };
}

/**
 * The built page of a gold reference: HTML manuals name the file itself, MkDocs projects the
 * source under docs/ ('user-guide/configuration.md' → 'user-guide/configuration/index.html',
 * 'index.md' and 'x/index.md' → their own index.html), as MkDocs builds directory URLs.
 */
export function builtPagePath(form: 'html' | 'mkdocs', page: string): string {
  const p = page.replace(/\\/g, '/').replace(/^\.?\/+/, '');
  if (form === 'html') return p;
  const m = /^(.*?)(?:\.md|\.markdown)$/i.exec(p);
  if (!m) return p;
  const stem = m[1];
  if (/^(index|README)$/i.test(stem)) return 'index.html';
  const dir = /^(.*)\/(index|README)$/i.exec(stem);
  if (dir) return `${dir[1]}/index.html`;
  return `${stem}/index.html`;
}

/**
 * Splits one site's pages across `count` entities (round-robin over the sorted pages), each
 * owned by its own group `group:default/<prefix>-<i>`, so a permission policy that grants one
 * group sees about 1/count of the corpus. Returns the entities and a reader serving their pages.
 */
export function splitSiteAcrossEntities(
  site: CorpusSite,
  count: number,
  options: { prefix?: string } = {},
): {
  entities: Entity[];
  reader: FileTechDocsReader;
  ownerOf: (i: number) => string;
} {
  const prefix = options.prefix ?? `${site.name}-part`;
  const ownerOf = (i: number) => `group:default/${prefix}-owner-${i}`;
  const reader = new FileTechDocsReader();
  const entities: Entity[] = [];
  for (let i = 0; i < count; i++) {
    const pages = site.pages.filter((_, j) => j % count === i);
    const entity = docsComponent(`${prefix}-${i}`, {
      title: `${site.name} part ${i}`,
      owner: ownerOf(i),
    });
    entities.push(entity);
    reader.add(stringifyEntityRef(entity), {
      dir: site.siteDir,
      siteName: `${site.name} part ${i}`,
      pages,
    });
  }
  return { entities, reader, ownerOf };
}
