import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// The project's style rule for source lines. Prettier keeps long strings and comments as they
// are, so it does not enforce this by itself.
const MAX_COLUMNS = 100;
const REPO = resolve(__dirname, '../..');
const SOURCE = /\.(ts|tsx|mjs|js)$/;
// Generated code (the OpenAPI router) is written by a tool, not by us.
const SKIPPED_FOLDERS = new Set(['generated', 'node_modules']);

/** Tracked .ts/.tsx/.mjs/.js files under plugins/, packages/ and test/, repository-relative. */
function checkedFiles(): string[] {
  const listed = execFileSync(
    'git',
    ['ls-files', '-z', '--', 'plugins', 'packages', 'test'],
    { cwd: REPO, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  return listed
    .split('\0')
    .filter(f => SOURCE.test(f))
    .filter(f => !f.split('/').some(part => SKIPPED_FOLDERS.has(part)))
    .filter(f => existsSync(join(REPO, f))); // deleted in the work tree, not yet committed
}

/**
 * The 1-based lines of `text` longer than `max` columns. A column is a code point, as an editor
 * counts it: Czech letters are one column each although UTF-8 takes two bytes for them.
 */
function longLines(text: string, max = MAX_COLUMNS) {
  return text
    .split(/\r?\n/)
    .map((line, i) => ({ line: i + 1, columns: [...line].length }))
    .filter(l => l.columns > max);
}

describe('line length', () => {
  it('finds lines over the limit by columns, not bytes', () => {
    const ok = 'x'.repeat(MAX_COLUMNS);
    const czech = 'č'.repeat(MAX_COLUMNS); // 200 bytes, 100 columns
    const long = `${ok}y`;
    expect(longLines([ok, czech, '', 'short'].join('\n'))).toEqual([]);
    expect(longLines([ok, long, czech, `${czech}ž`].join('\n'))).toEqual([
      { line: 2, columns: MAX_COLUMNS + 1 },
      { line: 4, columns: MAX_COLUMNS + 1 },
    ]);
    expect(longLines(`${ok}\r\n${long}\r\n`)).toEqual([
      { line: 2, columns: MAX_COLUMNS + 1 },
    ]);
  });

  it('checks the repository sources, skipping generated code', () => {
    const files = checkedFiles();
    // A broken listing (wrong folder, git missing) must not pass as "nothing too long".
    expect(files).toContain('test/src/lineLength.test.ts');
    expect(files).toContain('plugins/ask-docs-backend/src/plugin.ts');
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter(f => f.includes('/generated/'))).toEqual([]);
    expect(files.filter(f => !SOURCE.test(f))).toEqual([]);
  });

  it(`has no tracked source line over ${MAX_COLUMNS} columns`, () => {
    const offenders = checkedFiles().flatMap(file =>
      longLines(readFileSync(join(REPO, file), 'utf8')).map(
        l => `${file}:${l.line} (${l.columns} columns)`,
      ),
    );
    if (offenders.length > 0) {
      throw new Error(
        `${offenders.length} lines over ${MAX_COLUMNS} columns ` +
          '(split strings with +, wrap comments):\n' +
          offenders.join('\n'),
      );
    }
  });
});
