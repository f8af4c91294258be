/*
 * Hunspell benchmark (a script, not a test): our TypeScript reader against nodehun (native
 * hunspell) on the Debian cs_CZ dictionary, in the same run. From the repository root:
 *
 *   node -r @backstage/cli/config/nodeTransform.cjs test/bench/hunspell.ts [--rounds 3]
 *
 * Words: the distinct tokens of the Czech GIMP manual (shared corpora), as the analyzer sees
 * them (lower case). Reported: load CPU time (median of rounds), memory after load (each
 * reader loaded in a fresh child process, after GC), stem and spell CPU µs per word, and
 * ours/nodehun ratios (below 1 means ours is faster or smaller). Prints JSON.
 */
import { execFileSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
// prettier-ignore
import {
  DEFAULT_CZECH_DICTIONARY,
} from '../../plugins/ask-docs-backend/src/language/czechAnalyzer';
import { createHunspellReader } from '../../plugins/ask-docs-backend/src/language/hunspellReader';
import { tokenize } from '../../plugins/ask-docs-backend/src/language/tokenize';
import {
  listFiles,
  unpackCorpus,
} from '../../plugins/ask-docs-backend/src/ingestion/parsing/testUtils';

interface Speller {
  stemSync(word: string): string[];
  spellSync(word: string): boolean;
}
type Kind = 'ours' | 'nodehun';

function load(kind: Kind): Speller {
  const aff = fs.readFileSync(DEFAULT_CZECH_DICTIONARY.affPath);
  const dic = fs.readFileSync(DEFAULT_CZECH_DICTIONARY.dicPath);
  if (kind === 'ours')
    return createHunspellReader(aff.toString('utf8'), dic.toString('utf8'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Nodehun } = require('nodehun');
  return new Nodehun(aff, dic);
}

/** Child mode: load one reader and print the memory it holds (bytes, after GC). */
function measureMemory(kind: Kind): void {
  const gc = (globalThis as { gc?: () => void }).gc!;
  gc();
  const before = process.memoryUsage();
  const reader = load(kind);
  gc();
  const after = process.memoryUsage();
  reader.spellSync('pes'); // keep it reachable until measured
  process.stdout.write(
    JSON.stringify({
      rss: after.rss - before.rss,
      heapUsed: after.heapUsed - before.heapUsed,
    }),
  );
}

function memoryOf(kind: Kind): { rssMB: number; heapMB: number } {
  const out = execFileSync(
    process.execPath,
    [
      '--expose-gc',
      '-r',
      '@backstage/cli/config/nodeTransform.cjs',
      __filename,
      '--memory',
      kind,
    ],
    { encoding: 'utf8', maxBuffer: 1024 * 1024 },
  );
  const { rss, heapUsed } = JSON.parse(out);
  return { rssMB: round(rss / 2 ** 20), heapMB: round(heapUsed / 2 ** 20) };
}

async function gimpWords(): Promise<string[]> {
  const root = await unpackCorpus('gimp-help-cs');
  const words = new Set<string>();
  for (const file of await listFiles(root, f => f.endsWith('.html'))) {
    const text = fs
      .readFileSync(path.join(root, file), 'utf8')
      .replace(/<[^>]*>/g, ' ');
    for (const token of tokenize(text)) words.add(token);
  }
  return [...words];
}

/**
 * CPU µs per word of `fn` over all words, best of `rounds` passes. CPU time (user + system),
 * not wall time: the machine is shared, and both readers run on this thread.
 */
function timePerWord(
  words: string[],
  fn: (word: string) => unknown,
  rounds: number,
): number {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const start = process.cpuUsage();
    for (const word of words) fn(word);
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / words.length);
  }
  return round(best);
}

// The analyzer's call pattern: lower case first, capitalised when unknown.
function analyzerStem(reader: Speller, word: string): string[] {
  const stems = reader.stemSync(word);
  return stems.length > 0
    ? stems
    : reader.stemSync(word.charAt(0).toUpperCase() + word.slice(1));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const round = (x: number) => Math.round(x * 100) / 100;

async function main() {
  const memoryArg = process.argv.indexOf('--memory');
  if (memoryArg >= 0) {
    measureMemory(process.argv[memoryArg + 1] as Kind);
    return;
  }
  const roundsArg = process.argv.indexOf('--rounds');
  const rounds = roundsArg >= 0 ? Number(process.argv[roundsArg + 1]) : 3;
  const words = await gimpWords();
  const kinds: Kind[] = ['ours', 'nodehun'];

  // Loads alternate so that machine load affects both alike.
  const loadMs: Record<Kind, number[]> = { ours: [], nodehun: [] };
  const readers = {} as Record<Kind, Speller>;
  for (let r = 0; r < rounds; r++) {
    for (const kind of kinds) {
      const start = process.cpuUsage();
      readers[kind] = load(kind);
      const used = process.cpuUsage(start);
      loadMs[kind].push((used.user + used.system) / 1000);
    }
  }
  const results = {} as Record<Kind, Record<string, number>>;
  for (const kind of kinds) results[kind] = {};
  const operations: Array<
    [string, (reader: Speller, word: string) => unknown]
  > = [
    ['stemUsPerWord', (reader, word) => reader.stemSync(word)],
    ['analyzerStemUsPerWord', analyzerStem],
    ['spellUsPerWord', (reader, word) => reader.spellSync(word)],
  ];
  for (const [name, fn] of operations) {
    for (const kind of kinds) {
      results[kind][name] = timePerWord(
        words,
        word => fn(readers[kind], word),
        rounds,
      );
    }
  }
  const memory = { ours: memoryOf('ours'), nodehun: memoryOf('nodehun') };
  const ratio = (a: number, b: number) => round(a / b);
  const report = {
    command:
      'node -r @backstage/cli/config/nodeTransform.cjs test/bench/hunspell.ts',
    machine: {
      cpus: os.cpus().length,
      node: process.version,
      loadavg: os.loadavg().map(round),
    },
    words: words.length,
    rounds,
    loadCpuMs: {
      ours: round(median(loadMs.ours)),
      nodehun: round(median(loadMs.nodehun)),
    },
    memory,
    cpuUsPerWord: { ours: results.ours, nodehun: results.nodehun },
    ratioOursToNodehun: {
      load: ratio(median(loadMs.ours), median(loadMs.nodehun)),
      stem: ratio(results.ours.stemUsPerWord, results.nodehun.stemUsPerWord),
      analyzerStem: ratio(
        results.ours.analyzerStemUsPerWord,
        results.nodehun.analyzerStemUsPerWord,
      ),
      spell: ratio(results.ours.spellUsPerWord, results.nodehun.spellUsPerWord),
      rss: ratio(memory.ours.rssMB, memory.nodehun.rssMB),
    },
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch(error => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
