#!/usr/bin/env node
// Packs the publishable packages into tarballs, as `npm publish` would: type declarations, the
// Backstage build of each plugin, then `npm pack` (whose prepack/postpack apply publishConfig).
//   node scripts/pack-plugins.mjs [--out DIR]     prints {"<package name>": "<tarball path>"}
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '..',
);
const outIndex = process.argv.indexOf('--out');
const out = path.resolve(
  outIndex > 0 ? process.argv[outIndex + 1] : path.join(root, 'dist-packs'),
);

/** The packages an adopter installs; the plugins are built first, embedded-db is plain ESM. */
export const PUBLISHED = [
  { dir: 'plugins/ask-docs-common', build: true },
  { dir: 'plugins/ask-docs-node', build: true },
  { dir: 'plugins/ask-docs-backend', build: true },
  { dir: 'plugins/ask-docs', build: true },
  { dir: 'packages/embedded-db', build: false },
];

function run(command, args, cwd) {
  const r = spawnSync(command, args, {
    cwd,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    process.stderr.write(r.stdout ?? '');
    throw new Error(
      `${command} ${args.join(' ')} failed in ${
        path.relative(root, cwd) || '.'
      }`,
    );
  }
  return r.stdout;
}

fs.mkdirSync(out, { recursive: true });
// Declarations for the whole repo (dist-types/), which `backstage-cli package build` bundles.
run(
  'npx',
  ['tsc', '--noEmit', 'false', '--declaration', '--emitDeclarationOnly'],
  root,
);
const tarballs = {};
for (const pkg of PUBLISHED) {
  const cwd = path.join(root, pkg.dir);
  if (pkg.build) run('npx', ['backstage-cli', 'package', 'build'], cwd);
  const [packed] = JSON.parse(
    run('npm', ['pack', '--json', '--pack-destination', out], cwd),
  );
  tarballs[packed.name] = path.join(out, packed.filename);
}
process.stdout.write(`${JSON.stringify(tarballs, null, 2)}\n`);
