/**
 * SQL stays in the database layer (issue 18): outside `src/database/`, no module imports knex
 * or holds SQL statement text in a string or template literal. Retrieval and permissions call
 * typed functions there (IndexReader, visibilityPredicate.ts) instead. Test files and test
 * utilities may seed and inspect tables directly.
 */
import fs from 'fs';
import path from 'path';
import ts from 'typescript';

const SRC = __dirname;

/** Directories whose files may hold SQL: the layer itself, and test helpers. */
const EXEMPT_DIRS = new Set(['database', 'testUtils', '__testUtils__']);

/** Statement shapes; upper case as the code writes SQL, so prose ("select one from…") passes. */
const SQL_PATTERNS: Array<[string, RegExp]> = [
  ['SELECT … FROM', /\bSELECT\b[\s\S]*\bFROM\b/],
  ['JOIN', /\bJOIN\b/],
  ['INSERT INTO', /\bINSERT\s+INTO\b/],
  ['UPDATE … SET', /\bUPDATE\b[\s\S]*\bSET\b/],
  ['DELETE FROM', /\bDELETE\s+FROM\b/],
  ['SET LOCAL', /\bSET\s+LOCAL\b/],
  ['set_config', /\bset_config\s*\(/i],
  ['CREATE INDEX', /\bCREATE\s+(UNIQUE\s+)?INDEX\b/],
];

const KNEX_IMPORT = /^knex(\/|$)/;

/** Non-test TypeScript sources under `dir`, outside the exempt directories. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return EXEMPT_DIRS.has(entry.name) ? [] : sourceFiles(full);
    }
    const isSource =
      entry.name.endsWith('.ts') &&
      !entry.name.endsWith('.test.ts') &&
      !entry.name.endsWith('.d.ts');
    return isSource ? [full] : [];
  });
}

/** What in one file's text breaks the layering: knex imports and SQL in literals. */
export function layeringViolations(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest);
  const found: string[] = [];
  const where = (node: ts.Node) =>
    `${fileName}:${
      source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
    }`;
  const visit = (node: ts.Node) => {
    const moduleName =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
        ? node.moduleSpecifier.text
        : undefined;
    const required =
      ts.isCallExpression(node) &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0]) &&
      ['require', 'import'].includes(node.expression.getText(source))
        ? (node.arguments[0] as ts.StringLiteral).text
        : undefined;
    const imported = moduleName ?? required;
    if (imported !== undefined && KNEX_IMPORT.test(imported)) {
      found.push(`${where(node)} imports ${imported}`);
    } else if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateExpression(node)
    ) {
      // A template's text without its ${…} parts, which are checked on their own.
      const literal = ts.isTemplateExpression(node)
        ? [node.head.text, ...node.templateSpans.map(s => s.literal.text)].join(
            ' ',
          )
        : node.text;
      for (const [name, pattern] of SQL_PATTERNS) {
        if (pattern.test(literal))
          found.push(`${where(node)} has SQL (${name})`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('layering: SQL only in src/database', () => {
  const files = sourceFiles(SRC);

  it('scans the modules that must stay SQL-free', () => {
    const relative = files.map(f => path.relative(SRC, f));
    // A broken walk (wrong root, everything exempt) must not pass as "nothing found".
    expect(relative.length).toBeGreaterThan(20);
    expect(relative).toEqual(
      expect.arrayContaining([
        'plugin.ts',
        path.join('retrieval', 'retriever.ts'),
        path.join('retrieval', 'keywordSearch.ts'),
        path.join('permissions', 'visibility.ts'),
        path.join('service', 'AskService.ts'),
      ]),
    );
    expect(relative.some(f => f.startsWith(`database${path.sep}`))).toBe(false);
  });

  it('finds no knex import and no SQL text outside src/database', () => {
    const violations = files.flatMap(f =>
      layeringViolations(path.relative(SRC, f), fs.readFileSync(f, 'utf8')),
    );
    expect(violations).toEqual([]);
  });

  it('catches knex imports and SQL statements in literals', () => {
    const sample = [
      "import { Knex } from 'knex';",
      "import type { Knex as K } from 'knex/types';",
      "const knex = require('knex');",
      'const a = `SELECT k.term FROM ask_docs_keys AS k WHERE k.term = ${t}`;',
      'const b = "SELECT 1\\n  FROM x";',
      "const c = 'vc JOIN ask_docs_documents vd ON true';",
      "const d = 'INSERT INTO ask_docs_chunks VALUES (1)';",
      "const e = 'UPDATE ask_docs_entities SET deleted_at = now()';",
      "const f = 'DELETE FROM ask_docs_postings';",
      "const g = `SELECT ${x.map(() => 'set_config(?, ?, true)')}`;",
      'const h = `CREATE INDEX IF NOT EXISTS ${name} ON t (c)`;',
      "const i = 'SET LOCAL hnsw.ef_search = 40';",
    ].join('\n');
    const found = layeringViolations('sample.ts', sample);
    expect(found).toEqual([
      'sample.ts:1 imports knex',
      'sample.ts:2 imports knex/types',
      'sample.ts:3 imports knex',
      'sample.ts:4 has SQL (SELECT … FROM)',
      'sample.ts:5 has SQL (SELECT … FROM)',
      'sample.ts:6 has SQL (JOIN)',
      'sample.ts:7 has SQL (INSERT INTO)',
      'sample.ts:8 has SQL (UPDATE … SET)',
      'sample.ts:9 has SQL (DELETE FROM)',
      'sample.ts:10 has SQL (set_config)',
      'sample.ts:11 has SQL (CREATE INDEX)',
      'sample.ts:12 has SQL (SET LOCAL)',
    ]);
  });

  it('does not flag prose, comments or look-alike names', () => {
    const sample = [
      '// SELECT chunk_id FROM ask_docs_chunks JOIN ask_docs_documents (a comment)',
      '/** `DELETE FROM` and `INSERT INTO` in documentation. */',
      "const a = 'Select the answer you like best from the list below.';",
      'const b = `Update the settings, then set them again for ${who}.`;',
      "const c = 'Sources joined from the knowledge base';",
      "import { knexLike } from './knexLike';",
      'const KEY_JOIN = "\\u0000";',
      "const d = 'retrieval requires a Visibility from resolveVisibility()';",
    ].join('\n');
    expect(layeringViolations('prose.ts', sample)).toEqual([]);
  });
});
