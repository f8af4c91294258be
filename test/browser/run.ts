/*
 * Browser test harness: the real development portal (packages/backend serving the built app) on
 * an embedded Postgres, the sample TechDocs, and a fake OpenAI-compatible model that the browser
 * script can switch off. Then runs askDocs.browser.mjs (playwright-core + Debian chromium).
 *
 *   node -r @backstage/cli/config/nodeTransform.cjs test/browser/run.ts [--result FILE]
 *
 * Writes a jest-shaped result file for the gate (decision record 0005).
 */
import { ChildProcess, spawn, spawnSync } from 'child_process';
import fs from 'fs';
import http from 'http';
import os from 'os';
import path from 'path';
import { startEmbeddedPostgres } from '@askdocs/embedded-db';
import devPluginIds from '../../packages/backend/pluginDatabases.json';
import { startFakeOpenAI } from '../fake-openai';
import { citeFirstBlock } from '../src/fakeModelBehaviours';
import { SuiteCheck, waitFor, writeSuiteResult } from '../src/scriptedSuite';

const root = path.resolve(__dirname, '../..');
const port = Number(process.env.BROWSER_TEST_PORT ?? 7017);
const portal = `http://localhost:${port}`;
const outDir = path.join(root, 'test-results', 'browser');
const resultFile = argValue('--result') ?? path.join(outDir, 'result.json');
const screenshotDir = path.join(outDir, 'screenshots');

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function log(message: string) {
  process.stdout.write(`[browser-test] ${message}\n`);
}

function writeResult(checks: SuiteCheck[]) {
  writeSuiteResult(resultFile, 'test/browser/askDocs.browser.mjs', checks);
}

async function main() {
  // Screenshots of an earlier run must not pass for this one's.
  fs.rmSync(screenshotDir, { recursive: true, force: true });
  // 1. the app, built once (the backend serves packages/app/dist)
  const appDist = path.join(root, 'packages/app/dist/index.html');
  if (!fs.existsSync(appDist) || process.env.BROWSER_TEST_REBUILD_APP) {
    log('building the app');
    const r = spawnSync('npx', ['backstage-cli', 'package', 'build'], {
      cwd: path.join(root, 'packages/app'),
      stdio: 'inherit',
    });
    if (r.status !== 0) throw new Error('app build failed');
  }

  // 2. sample TechDocs
  const publishDir = fs.mkdtempSync(
    path.join(os.tmpdir(), 'ask-docs-browser-techdocs-'),
  );
  const built = spawnSync(
    process.execPath,
    [path.join(root, 'scripts/build-sample-docs.mjs'), publishDir],
    { stdio: 'inherit' },
  );
  if (built.status !== 0) throw new Error('building sample docs failed');

  // 3. database and fake model with a control endpoint for the browser script
  // The development backend's plugin databases, as `./run start` opens them.
  const db = await startEmbeddedPostgres({
    preload: devPluginIds.map(id => `backstage_plugin_${id}`),
  });
  const fake = await startFakeOpenAI({ behaviour: citeFirstBlock });
  const control = http.createServer((req, res) => {
    let body = '';
    req.on('data', c => (body += c));
    req.on('end', () => {
      const mode = (() => {
        try {
          return JSON.parse(body).mode;
        } catch {
          return undefined;
        }
      })();
      if (mode === 'down') fake.setBehaviour(() => ({ status: 503 }));
      else if (mode === 'up') fake.setBehaviour(citeFirstBlock);
      else {
        res.writeHead(400).end();
        return;
      }
      log(`fake model is ${mode}`);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>(r => control.listen(0, '127.0.0.1', () => r()));
  const controlUrl = `http://127.0.0.1:${(control.address() as any).port}/mode`;

  // 4. the portal
  const env = {
    ...process.env,
    POSTGRES_HOST: db.host,
    POSTGRES_PORT: String(db.port),
    POSTGRES_USER: db.connection.user,
    POSTGRES_PASSWORD: db.connection.password,
    TECHDOCS_PUBLISH_DIR: publishDir,
    ASK_DOCS_LLM_BASE_URL: fake.baseUrl,
    ASK_DOCS_LLM_API_KEY: 'browser-test',
    ASK_DOCS_LLM_MODEL: 'fake-model',
    ASK_DOCS_MODEL_DIR: path.join(publishDir, 'no-models'),
    APP_CONFIG_app_baseUrl: portal,
    APP_CONFIG_backend_baseUrl: portal,
    APP_CONFIG_backend_listen_port: String(port),
    APP_CONFIG_backend_cors_origin: portal,
    APP_CONFIG_askDocs_ingestion_schedule_initialDelay_seconds: '2',
    NODE_ENV: 'development',
  };
  const logFile = path.join(outDir, 'backend.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const out = fs.openSync(logFile, 'w');
  const backend: ChildProcess = spawn(
    process.execPath,
    [
      '-r',
      '@backstage/cli/config/nodeTransform.cjs',
      'src/index.ts',
      '--config',
      '../../app-config.yaml',
    ],
    {
      cwd: path.join(root, 'packages/backend'),
      env,
      stdio: ['ignore', out, out],
    },
  );
  let exitCode = 1;
  try {
    log(
      `waiting for the portal at ${portal} (log: ${path.relative(
        root,
        logFile,
      )})`,
    );
    await waitFor(
      'the ask-docs health endpoint',
      async () => {
        if (backend.exitCode !== null)
          throw new Error(`backend exited with ${backend.exitCode}`);
        const res = await fetch(`${portal}/api/ask-docs/health`);
        return res.ok ? true : undefined;
      },
      300_000,
    );
    // A fresh guest token each time: group membership (team-ask-docs, the admins) is resolved at
    // sign-in and exists only once the catalog has read examples/org.yaml.
    const guestToken = async () => {
      const res = await fetch(
        `${portal}/api/auth/guest/refresh?env=development`,
        { headers: { 'X-Requested-With': 'XMLHttpRequest' } },
      );
      return (await res.json())?.backstageIdentity?.token as string;
    };
    await waitFor(
      'the catalog to load the sample entities',
      async () => {
        const res = await fetch(
          `${portal}/api/catalog/entities/by-name/component/default/payments-service`,
          {
            headers: { Authorization: `Bearer ${await guestToken()}` },
          },
        );
        return res.ok ? true : undefined;
      },
      300_000,
    );
    const started = await waitFor(
      'an ingestion run to start',
      async () => {
        const res = await fetch(`${portal}/api/ask-docs/v1/ingestion/runs`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${await guestToken()}` },
        });
        return res.status === 202 ? true : undefined;
      },
      120_000,
    );
    void started;
    const progress = await waitFor(
      'an ingestion run over the sample docs',
      async () => {
        const res = await fetch(`${portal}/api/ask-docs/v1/ingestion`, {
          headers: { Authorization: `Bearer ${await guestToken()}` },
        });
        const body = await res.json();
        return body.status === 'succeeded' && body.pagesDone > 0
          ? body
          : undefined;
      },
      300_000,
    );
    log(
      `ingested ${progress.pagesDone} pages, ${progress.chunksWritten} chunks`,
    );

    // Not spawnSync: the fake model and its control endpoint live in this process's event loop.
    const script = await new Promise<{ status: number | null; stdout: string }>(
      resolve => {
        const child = spawn(
          process.execPath,
          [path.join(__dirname, 'askDocs.browser.mjs')],
          {
            env: {
              ...process.env,
              PORTAL_URL: portal,
              FAKE_MODEL_CONTROL_URL: controlUrl,
              SCREENSHOT_DIR: screenshotDir,
            },
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
        let stdout = '';
        child.stdout!.on('data', d => {
          stdout += d;
          process.stdout.write(d);
        });
        child.on('close', status => resolve({ status, stdout }));
      },
    );
    const summary = /^(\d+) passed, (\d+) failed$/m.exec(script.stdout);
    const passed = summary ? Number(summary[1]) : 0;
    const failed = summary ? Number(summary[2]) : 1;
    writeResult([
      ...Array.from({ length: passed }, (_, i) => ({
        name: `check ${i + 1}`,
        ok: true,
      })),
      ...Array.from({ length: failed }, (_, i) => ({
        name: `failed ${i + 1}`,
        ok: false,
      })),
    ]);
    exitCode = script.status === 0 && failed === 0 && passed > 0 ? 0 : 1;
  } catch (e) {
    log(`failed: ${e}`);
    writeResult([{ name: 'harness', ok: false }]);
  } finally {
    backend.kill('SIGTERM');
    await new Promise(r => setTimeout(r, 1000));
    if (backend.exitCode === null) backend.kill('SIGKILL');
    control.close();
    await fake.stop();
    await db.stop();
    fs.rmSync(publishDir, { recursive: true, force: true });
  }
  process.exit(exitCode);
}

main().catch(e => {
  log(`harness error: ${e}`);
  writeResult([{ name: 'harness', ok: false }]);
  process.exit(1);
});
