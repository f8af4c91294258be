import crypto from 'crypto';
import fs from 'fs';
import path from 'path';

/** Lists files below `dir`, relative to it, with '/' separators. */
export function listFiles(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const p = path.join(dir, e.name);
    return e.isDirectory()
      ? listFiles(p, base)
      : [path.relative(base, p).split(path.sep).join('/')];
  });
}

/**
 * Publishes a built MkDocs `site/` folder for an entity the way the TechDocs local publisher lays
 * it out, writing techdocs_metadata.json with an etag derived from the content.
 */
export function publishSite(options: {
  siteDir: string;
  publishDir: string;
  entity: { namespace?: string; kind: string; name: string };
  siteName: string;
}): { dir: string; etag: string } {
  const { entity } = options;
  const dir = path.join(
    options.publishDir,
    entity.namespace ?? 'default',
    entity.kind.toLowerCase(),
    entity.name,
  );
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.cpSync(options.siteDir, dir, { recursive: true });
  return { dir, etag: writeMetadata(dir, options.siteName) };
}

/** (Re)writes techdocs_metadata.json after the site's files changed; returns the new etag. */
export function writeMetadata(dir: string, siteName: string): string {
  const files = listFiles(dir)
    .filter(f => f !== 'techdocs_metadata.json')
    .sort();
  const hash = crypto.createHash('sha256');
  for (const f of files.filter(x => x.endsWith('.html')))
    hash.update(f).update(fs.readFileSync(path.join(dir, f)));
  const etag = hash.digest('hex').slice(0, 40);
  fs.writeFileSync(
    path.join(dir, 'techdocs_metadata.json'),
    JSON.stringify({
      site_name: siteName,
      site_description: '',
      etag,
      build_timestamp: Date.now(),
      files,
    }),
  );
  return etag;
}
