/*
 * The type check is part of the gate. jest strips types without checking them, so without this
 * the compile-time contract checks (the wire types against the OpenAPI document in
 * openapiDrift.test.ts, the clients against the router) and the JSDoc types of the embedded
 * server's .mjs files would hold only where someone happened to run `tsc`.
 */
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const REPO = resolve(__dirname, '../..');
/** The embedded server is plain ESM with JSDoc types (`// @ts-check`), checked as JavaScript. */
const EMBEDDED_DB_MODULES = ['wireServer.mjs', 'auth.mjs', 'server.mjs'].map(
  f => join(REPO, 'packages/embedded-db', f),
);

function projectProgram(): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(REPO, 'tsconfig.json'),
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: d => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  return ts.createProgram(config.fileNames, config.options);
}

function javascriptProgram(files: string[]): ts.Program {
  return ts.createProgram(files, {
    allowJs: true,
    checkJs: true,
    noEmit: true,
    // As `// @ts-check` checks them; the JSDoc does not declare every parameter.
    skipLibCheck: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
  });
}

/** Every error of a program, as `file:line: message` (relative to the repository). */
function errors(program: ts.Program): string[] {
  return ts
    .getPreEmitDiagnostics(program)
    .filter(d => d.category === ts.DiagnosticCategory.Error)
    .map(d => {
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      if (!d.file) return message;
      const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
      return `${relative(REPO, d.file.fileName)}:${line + 1}: ${message}`;
    });
}

const rootFiles = (program: ts.Program) =>
  program.getRootFileNames().map(f => relative(REPO, f));

describe('type check', () => {
  it('reports a type error when there is one (the checker really runs)', () => {
    const dir = join(REPO, 'packages/embedded-db');
    const file = join(dir, 'not-a-real-file.mjs');
    const host = ts.createCompilerHost({ allowJs: true, checkJs: true });
    const readFile = host.readFile;
    const source =
      '// @ts-check\n/** @type {number} */\nexport const n = "x";\n';
    host.readFile = name => (name === file ? source : readFile(name));
    host.fileExists = name => name === file || ts.sys.fileExists(name);
    const program = ts.createProgram(
      [file],
      { allowJs: true, checkJs: true, noEmit: true },
      host,
    );
    expect(errors(program).join('\n')).toMatch(
      /not-a-real-file\.mjs:3: Type 'string' is not assignable to type 'number'/,
    );
  });

  it('finds no type error in the workspaces, tests and the contract checks', () => {
    const program = projectProgram();
    // A wrong include list must not pass as "no errors".
    expect(rootFiles(program)).toEqual(
      expect.arrayContaining([
        'plugins/ask-docs-backend/src/service/openapiDrift.test.ts',
        'plugins/ask-docs-backend/src/schema/openapi/generated/router.ts',
        'plugins/ask-docs/src/api/AskDocsClient.ts',
        'test/src/typecheck.test.ts',
      ]),
    );
    expect(errors(program)).toEqual([]);
  }, 600_000);

  it("finds no type error in the embedded server's JSDoc-typed modules", () => {
    const program = javascriptProgram(EMBEDDED_DB_MODULES);
    expect(rootFiles(program)).toEqual([
      'packages/embedded-db/wireServer.mjs',
      'packages/embedded-db/auth.mjs',
      'packages/embedded-db/server.mjs',
    ]);
    expect(errors(program)).toEqual([]);
  }, 300_000);
});
