#!/usr/bin/env node
// `npm start`: the development portal with no external services. Starts the embedded Postgres
// (PGlite + pgvector over the wire protocol, data in .data/pg) unless POSTGRES_HOST points at a
// real server, publishes the sample TechDocs, then runs the Backstage app and backend.
//   --backend-only   serve the built app from the backend (used by the browser tests)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

const root = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '..',
);
const backendOnly = process.argv.includes('--backend-only');
const env = { ...process.env };
const children = [];
// The development backend's plugins, each with its own database (opened before the backend starts).
const PLUGIN_DATABASES = JSON.parse(
  fs.readFileSync(path.join(root, 'packages/backend/pluginDatabases.json')),
).map(id => `backstage_plugin_${id}`);

function stopAll(code = 0) {
  for (const c of children.reverse()) {
    if (c.exitCode === null) c.kill('SIGTERM');
  }
  setTimeout(() => process.exit(code), 1500).unref();
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

async function startEmbeddedDb() {
  const port = env.ASK_DOCS_DB_PORT ?? '5433';
  const dataDir = env.ASK_DOCS_DB_DIR ?? path.join(root, '.data', 'pg');
  const child = spawn(
    process.execPath,
    [
      path.join(root, 'packages/embedded-db/server.mjs'),
      '--port',
      port,
      '--data-dir',
      dataDir,
      '--preload',
      PLUGIN_DATABASES.join(','),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  children.push(child);
  const ready = await new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    lines.on('line', line => {
      if (line.startsWith('{') && JSON.parse(line).ready)
        resolve(JSON.parse(line));
      else process.stdout.write(`[db] ${line}\n`);
    });
    child.once('exit', c =>
      reject(
        new Error(
          `embedded Postgres exited (${c}); see its message above (a port in use: set ` +
            'ASK_DOCS_DB_PORT; a data directory in use: another ./run start is running).',
        ),
      ),
    );
  });
  console.log(
    `[db] embedded Postgres + pgvector (PGlite) on ${ready.host}:${
      ready.port
    }, data in ${path.relative(root, dataDir)}`,
  );
  Object.assign(env, {
    POSTGRES_HOST: ready.host,
    POSTGRES_PORT: String(ready.port),
    // The data dir's own password (in .data/pg/.password; the server printed it above).
    POSTGRES_USER: ready.user,
    POSTGRES_PASSWORD: ready.password,
  });
}

if (!env.POSTGRES_HOST && env.ASK_DOCS_EMBEDDED_DB !== 'off') {
  await startEmbeddedDb();
} else {
  console.log(
    `[db] using external Postgres at ${env.POSTGRES_HOST}:${
      env.POSTGRES_PORT ?? 5432
    }`,
  );
}

env.TECHDOCS_PUBLISH_DIR ??= path.join(root, '.data', 'techdocs');
if (spawnSync('mkdocs', ['--version'], { stdio: 'ignore' }).status === 0) {
  const r = spawnSync(
    process.execPath,
    [
      path.join(root, 'scripts/build-sample-docs.mjs'),
      env.TECHDOCS_PUBLISH_DIR,
    ],
    { stdio: 'inherit' },
  );
  if (r.status !== 0)
    console.warn(
      '[techdocs] building the sample docs failed; TechDocs pages may be missing',
    );
} else if (!fs.existsSync(env.TECHDOCS_PUBLISH_DIR)) {
  console.warn(
    '[techdocs] mkdocs is not installed (scripts/install-system-deps.sh); no sample TechDocs',
  );
}
env.ASK_DOCS_MODEL_DIR ??= path.join(root, '.data', 'models');

const command = backendOnly
  ? ['npx', 'backstage-cli', 'package', 'start']
  : ['npx', 'backstage-cli', 'repo', 'start'];
const cwd = backendOnly ? path.join(root, 'packages/backend') : root;
const portal = spawn(command[0], command.slice(1), {
  cwd,
  env,
  stdio: 'inherit',
});
children.push(portal);
portal.once('exit', code => stopAll(code ?? 0));
