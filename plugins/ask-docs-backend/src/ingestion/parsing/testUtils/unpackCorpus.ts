import { execFile } from 'child_process';
import { existsSync, promises as fs, statSync } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { promisify } from 'util';

/*
 * Test helper: the real documentation corpora (../shared/corpora/*.tar.xz beside the repository),
 * unpacked once into os.tmpdir()/ask-docs-corpora/<name>-<stamp> and reused by later runs and
 * other suites.
 */

const run = promisify(execFile);

/**
 * Where the corpus archives are: $ASK_DOCS_CORPORA_DIR, else the nearest ancestor's shared/corpora.
 */
export function corporaDir(): string {
  const fromEnv = process.env.ASK_DOCS_CORPORA_DIR;
  if (fromEnv) return fromEnv;
  let dir = __dirname;
  for (;;) {
    const candidate = path.join(dir, 'shared', 'corpora');
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir)
      throw new Error(
        'Corpora not found: set ASK_DOCS_CORPORA_DIR to the folder holding *.tar.xz',
      );
    dir = parent;
  }
}

export function corpusArchive(name: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(name))
    throw new Error(`Bad corpus name ${JSON.stringify(name)}`);
  return path.join(corporaDir(), `${name}.tar.xz`);
}

/**
 * Unpacks corpus `name` (e.g. 'postgresql-docs') and resolves to its root folder, i.e. the
 * archive's single top-level folder ('site/', 'docs/' and 'mkdocs.yml' for MkDocs projects). Cached
 * by archive size and mtime, in a folder of that stamp's own: two checkouts whose archives differ
 * (a copied `shared/` has new mtimes) never remove each other's copy while one is reading it. Safe
 * when several jest workers ask at once (each extracts into its own staging folder and the first
 * rename wins).
 */
export async function unpackCorpus(name: string): Promise<string> {
  const archive = corpusArchive(name);
  const stat = statSync(archive);
  const stamp = `${stat.size}-${Math.round(stat.mtimeMs)}`;
  const cacheRoot = path.join(os.tmpdir(), 'ask-docs-corpora');
  const target = path.join(cacheRoot, `${name}-${stamp}`);
  if (existsSync(target)) return target;

  await fs.mkdir(cacheRoot, { recursive: true });
  const staging = await fs.mkdtemp(path.join(cacheRoot, `.${name}-`));
  try {
    await run('tar', ['-xJf', archive, '-C', staging], {
      maxBuffer: 16 * 1024 * 1024,
    });
    const entries = await fs.readdir(staging, { withFileTypes: true });
    let unpacked = staging;
    if (entries.length === 1 && entries[0].isDirectory())
      unpacked = path.join(staging, entries[0].name);
    try {
      await fs.rename(unpacked, target);
    } catch (e) {
      if (!existsSync(target)) throw e;
    }
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
  return target;
}

/** Files below `root` (relative paths, '/'-separated, sorted) whose names pass `accept`. */
export async function listFiles(
  root: string,
  accept: (relativePath: string) => boolean = () => true,
): Promise<string[]> {
  const found: string[] = [];
  const pending = [''];
  while (pending.length > 0) {
    const rel = pending.pop()!;
    for (const entry of await fs.readdir(path.join(root, rel), {
      withFileTypes: true,
    })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) pending.push(child);
      else if (accept(child)) found.push(child);
    }
  }
  return found.sort();
}
