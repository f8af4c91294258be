#!/usr/bin/env node
// Builds the sample TechDocs sites (examples/docs/*) and the project's own docs (mkdocs.yml at the
// root) with Debian's mkdocs + material theme, and publishes them the way the TechDocs local
// publisher expects: <publishDir>/<namespace>/<kind>/<name>/ with techdocs_metadata.json.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '..',
);
const publishDir = path.resolve(
  process.argv[2] ?? path.join(root, '.data', 'techdocs'),
);

const sites = [
  { name: 'ask-docs', dir: root },
  ...fs
    .readdirSync(path.join(root, 'examples', 'docs'))
    .map(name => ({ name, dir: path.join(root, 'examples', 'docs', name) })),
];

function listFiles(dir, base = dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? listFiles(p, base) : [path.relative(base, p)];
  });
}

for (const site of sites) {
  const out = path.join(publishDir, 'default', 'component', site.name);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const tmpConfig = path.join(site.dir, '.mkdocs.build.yml');
  const config = fs.readFileSync(path.join(site.dir, 'mkdocs.yml'), 'utf8');
  fs.writeFileSync(
    tmpConfig,
    `${config}\ntheme:\n  name: material\nuse_directory_urls: true\n`,
  );
  try {
    execFileSync(
      'mkdocs',
      ['build', '--quiet', '--config-file', tmpConfig, '--site-dir', out],
      { stdio: 'inherit' },
    );
  } finally {
    fs.rmSync(tmpConfig, { force: true });
  }
  const files = listFiles(out).sort();
  const hash = crypto.createHash('sha256');
  for (const f of files.filter(f => f.endsWith('.html')))
    hash.update(f).update(fs.readFileSync(path.join(out, f)));
  const siteName = /site_name:\s*(.+)/.exec(config)?.[1]?.trim() ?? site.name;
  fs.writeFileSync(
    path.join(out, 'techdocs_metadata.json'),
    JSON.stringify(
      {
        site_name: siteName,
        site_description: '',
        etag: hash.digest('hex').slice(0, 40),
        build_timestamp: Date.now(),
        files,
      },
      null,
      2,
    ),
  );
  console.log(
    `techdocs: built ${site.name} (${
      files.filter(f => f.endsWith('.html')).length
    } pages) -> ${path.relative(root, out)}`,
  );
}
