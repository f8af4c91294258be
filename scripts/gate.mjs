#!/usr/bin/env node
// The test command (decision record 0005: gates fail closed). Runs a deliberately failing case
// first to prove a failure is seen, then every expected suite; a suite that did not run, skipped
// tests, ran too few or misses a required test file counts as failed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suites } from '../test/gate/suites.mjs';

const root = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '..',
);
const GATE_PREFIX = 'ask-docs-gate-';
const STALE_MS = 24 * 3600_000;
const only = process.argv.slice(2);

// A CI machine can be reused between runs and its disk is not ours alone (a run failed with
// ENOSPC while installing the adopter's app). So the gate leaves nothing behind: every suite gets
// its own TMPDIR, removed when the suite ends, and runs that were killed before their clean-up
// are removed by the next run once a day old.
for (const name of fs.readdirSync(os.tmpdir())) {
  if (!name.startsWith(GATE_PREFIX)) continue;
  const dir = path.join(os.tmpdir(), name);
  try {
    if (Date.now() - fs.statSync(dir).mtimeMs > STALE_MS) removeDir(dir);
  } catch {
    // another run's directory that vanished meanwhile
  }
}
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), GATE_PREFIX));

function removeDir(dir) {
  try {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch (e) {
    console.warn(`gate: could not remove ${dir}: ${e}`);
  }
}

/** Runs one suite with its own scratch directory as TMPDIR; returns its exit status. */
function run(command, out) {
  const args = command.map(a => a.replace('{out}', out));
  const scratch = fs.mkdtempSync(path.join(outDir, 'tmp-'));
  console.log(`\n$ ${args.join(' ')}`);
  try {
    const r = spawnSync(args[0], args.slice(1), {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, CI: process.env.CI ?? 'true', TMPDIR: scratch },
    });
    return r.status ?? 1;
  } finally {
    removeDir(scratch);
  }
}

function readJest(out) {
  if (!fs.existsSync(out)) return undefined;
  try {
    return JSON.parse(fs.readFileSync(out, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The repository's tracked test files, or undefined when git cannot list them. */
function trackedTestFiles() {
  const r = spawnSync('git', ['ls-files', '-z'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (r.status !== 0 || typeof r.stdout !== 'string') return undefined;
  return r.stdout
    .split('\0')
    .filter(f => /\.test\.(ts|tsx|js|jsx|mjs|cjs)$/.test(f));
}

/** Judges one suite's result; returns the reasons it failed (empty = passed). */
function judge(suite, status, result) {
  const problems = [];
  const required = [...(suite.requiredFiles ?? [])];
  if (suite.everyTrackedTestFile) {
    // Each test file in the repository, not only the listed ones: a file jest stopped finding
    // (a moved root, a renamed pattern) has not run, so it has failed.
    const tracked = trackedTestFiles();
    if (!tracked) problems.push('could not list the tracked test files (git)');
    else required.push(...tracked.filter(f => !required.includes(f)));
  }
  if (status !== 0) problems.push(`exit code ${status}`);
  if (!result) {
    problems.push('no result file: the suite did not run');
    return { problems, counts: { passed: 0, failed: 0, skipped: 0 } };
  }
  const counts = {
    passed: result.numPassedTests ?? 0,
    failed:
      (result.numFailedTests ?? 0) + (result.numRuntimeErrorTestSuites ?? 0),
    skipped: (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0),
  };
  if (counts.failed > 0) problems.push(`${counts.failed} failed`);
  if (counts.skipped > 0)
    problems.push(`${counts.skipped} skipped (a skipped check has not run)`);
  if ((result.numTotalTests ?? 0) < (suite.minTests ?? 1)) {
    problems.push(
      `only ${result.numTotalTests ?? 0} tests ran, expected at least ${
        suite.minTests ?? 1
      }`,
    );
  }
  for (const file of required) {
    // Jest names files by absolute path, the browser and adopter runners by relative path.
    const hit = (result.testResults ?? []).find(
      t => t.name === file || (t.name ?? '').endsWith(`/${file}`),
    );
    if (!hit) problems.push(`required test file ${file} did not run`);
    else if (hit.status !== 'passed')
      problems.push(`required test file ${file}: ${hit.status}`);
  }
  return { problems, counts };
}

// 1. Self-test: the gate must recognise a failing check.
{
  const out = path.join(outDir, 'selftest.json');
  const status = run(
    [
      'npx',
      'jest',
      '--rootDir',
      'test/gate',
      '--testRegex',
      'always-fails\\.selftest\\.js$',
      '--json',
      '--outputFile={out}',
    ],
    out,
  );
  const verdict = judge(
    { name: 'selftest', minTests: 1 },
    status,
    readJest(out),
  );
  if (verdict.problems.length === 0 || verdict.counts.failed < 1) {
    console.error(
      '\ngate: the deliberately failing self-test was judged as passing; the gate cannot be trusted',
    );
    console.log('0 passed, 1 failed');
    removeDir(outDir);
    process.exit(1);
  }
  console.log(
    `\ngate: self-test failed as it must (${verdict.problems.join('; ')})`,
  );
}

// 2. Every expected suite.
let passed = 0;
let failed = 0;
const report = [];
for (const suite of suites) {
  if (only.length && !only.includes(suite.name)) {
    // Running a subset is for local work; the full gate never skips silently.
    report.push({
      suite: suite.name,
      ok: false,
      problems: ['not selected in this run'],
    });
    failed += 1;
    continue;
  }
  const out = path.join(outDir, `${suite.name}.json`);
  const status = run(suite.command, out);
  const { problems, counts } = judge(suite, status, readJest(out));
  passed += counts.passed;
  failed += counts.failed + (problems.length && counts.failed === 0 ? 1 : 0);
  report.push({
    suite: suite.name,
    ok: problems.length === 0,
    problems,
    counts,
  });
}

console.log('\ngate summary');
for (const r of report) {
  const c = r.counts
    ? ` (${r.counts.passed} passed, ${r.counts.failed} failed, ${r.counts.skipped} skipped)`
    : '';
  console.log(
    `  ${r.ok ? 'PASS' : 'FAIL'} ${r.suite}${c}${
      r.ok ? '' : `: ${r.problems.join('; ')}`
    }`,
  );
}
console.log(`${passed} passed, ${failed} failed`);
removeDir(outDir);
process.exit(report.every(r => r.ok) ? 0 : 1);
