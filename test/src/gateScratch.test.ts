import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The gate leaves nothing behind on a reused CI machine (a run failed with ENOSPC): each suite
// gets its own TMPDIR, removed when the suite ends whether it passed or not, and directories of
// killed runs are removed by the next run once they are a day old. This runs the real
// scripts/gate.mjs over two stand-in suites in a copy of the repository's layout.
const REPO = path.resolve(__dirname, '../..');

/**
 * A stand-in suite: notes any earlier suite's TMPDIR still there, records its own, writes a file
 * in it and reports one test as `status`.
 */
function fakeSuite(name: string, status: 'passed' | 'failed', log: string) {
  const script = `
    const fs = require('fs'), os = require('os'), path = require('path');
    const dir = os.tmpdir();
    const earlier = fs.existsSync(${JSON.stringify(log)})
      ? fs.readFileSync(${JSON.stringify(
        log,
      )}, 'utf8').split('\\n').filter(Boolean) : [];
    for (const d of earlier)
      if (fs.existsSync(d)) fs.appendFileSync(${JSON.stringify(
        log,
      )} + '.left', d + '\\n');
    fs.writeFileSync(path.join(dir, 'scratch.bin'), Buffer.alloc(1024));
    fs.appendFileSync(${JSON.stringify(log)}, dir + '\\n');
    const ok = ${JSON.stringify(status)} === 'passed';
    fs.writeFileSync(process.argv[1], JSON.stringify({
      numPassedTests: ok ? 1 : 0, numFailedTests: ok ? 0 : 1, numTotalTests: 1,
      testResults: [{ name: ${JSON.stringify(name)}, status: ${JSON.stringify(
    status,
  )} }],
    }));
    process.exit(ok ? 0 : 1);`;
  return { name, command: ['node', '-e', script, '{out}'], minTests: 1 };
}

describe('the gate cleans up after itself', () => {
  let work: string;
  beforeEach(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'gate-scratch-test-'));
  });
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  it('removes each suite’s TMPDIR, its own directory and a day-old one of a killed run', () => {
    const root = path.join(work, 'repo');
    const tmp = path.join(work, 'tmp');
    const log = path.join(work, 'scratch-dirs.txt');
    fs.mkdirSync(path.join(root, 'scripts'), { recursive: true });
    fs.mkdirSync(path.join(root, 'test/gate'), { recursive: true });
    fs.mkdirSync(tmp);
    fs.copyFileSync(
      path.join(REPO, 'scripts/gate.mjs'),
      path.join(root, 'scripts/gate.mjs'),
    );
    fs.copyFileSync(
      path.join(REPO, 'test/gate/always-fails.selftest.js'),
      path.join(root, 'test/gate/always-fails.selftest.js'),
    );
    fs.writeFileSync(
      path.join(root, 'package.json'),
      JSON.stringify({ name: 'gate-copy', private: true }),
    );
    fs.symlinkSync(
      path.join(REPO, 'node_modules'),
      path.join(root, 'node_modules'),
    );
    const suites = [
      fakeSuite('passing', 'passed', log),
      fakeSuite('failing', 'failed', log),
    ];
    fs.writeFileSync(
      path.join(root, 'test/gate/suites.mjs'),
      `export const suites = ${JSON.stringify(suites)};\n`,
    );
    const stale = path.join(tmp, 'ask-docs-gate-killedrun');
    const recent = path.join(tmp, 'ask-docs-gate-otherrun');
    const unrelated = path.join(tmp, 'someone-else');
    for (const dir of [stale, recent, unrelated]) fs.mkdirSync(dir);
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
    fs.utimesSync(stale, twoDaysAgo, twoDaysAgo);
    fs.utimesSync(unrelated, twoDaysAgo, twoDaysAgo);

    const r = spawnSync('node', ['scripts/gate.mjs'], {
      cwd: root,
      env: { ...process.env, TMPDIR: tmp },
      encoding: 'utf8',
      timeout: 120_000,
    });

    // The failing stand-in fails the gate, and both suites ran.
    expect(r.stdout).toContain('PASS passing');
    expect(r.stdout).toContain('FAIL failing');
    expect(r.status).toBe(1);
    const scratchDirs = fs.readFileSync(log, 'utf8').trim().split('\n');
    expect(scratchDirs).toHaveLength(2);
    expect(new Set(scratchDirs).size).toBe(2);
    for (const dir of scratchDirs) {
      // Each suite's TMPDIR was inside this run's gate directory, and is gone.
      expect(path.relative(tmp, dir)).toMatch(/^ask-docs-gate-[^/]+\/tmp-/);
      expect(fs.existsSync(dir)).toBe(false);
    }
    // Removed when its suite ended, not only with the run's directory at the end.
    expect(fs.existsSync(`${log}.left`)).toBe(false);
    const left = fs.readdirSync(tmp).sort();
    // The killed run's day-old directory is gone; a recent run's and anyone else's stay.
    expect(left).toEqual(['ask-docs-gate-otherrun', 'someone-else']);
  });
});
