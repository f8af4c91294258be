/**
 * The dictionary file (.dic): one word a line with optional flags (`word/flags`). The same
 * word on several lines is kept as homonyms in file order, each with its own flags.
 */
import { CapType, capType, capitalise } from './casing';
import { flagBytes } from './affixFile';

/**
 * Marks hunspell's hidden capitalised entries: "iPhone" is also stored as "Iphone" so that
 * "IPHONE" is accepted, but "Iphone" typed as such is not (an initial-capital input skips them).
 */
export const ONLY_UPCASE = '\u0100';

export class UnsupportedDictionaryFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedDictionaryFileError';
  }
}

/** Flags of one entry, or of several homonyms. */
export type Homonyms = string | readonly string[];

/**
 * Sequential string hash in two lanes, so that a caller can hash "rest + strip" without
 * building the string: hashText(hashText(SEED, rest), strip). Only 2^31 states per lane are
 * needed for the filter below, hence plain 32-bit multiply-xor steps.
 */
export const HASH_SEED_A = 0x811c9dc5 | 0;
export const HASH_SEED_B = 0x2f693bd5 | 0;

export function hashTextA(state: number, text: string): number {
  let h = state;
  for (let i = 0; i < text.length; i++)
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

export function hashTextB(state: number, text: string): number {
  let h = state;
  for (let i = 0; i < text.length; i++)
    h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}

function finish(h: number): number {
  let x = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return x ^ (x >>> 16);
}

const FILTER_BITS = 1 << 23; // 1 MB: about 0.4% false positives for 300k words

export class WordTable {
  private readonly words = new Map<string, string | string[]>();
  /**
   * Bloom filter over the words: most roots an affix rule proposes are not words, and
   * rejecting them here avoids building the string and hashing it for the map.
   */
  private readonly filter = new Int32Array(FILTER_BITS / 32);

  get size(): number {
    return this.words.size;
  }

  get(word: string): Homonyms | undefined {
    return this.words.get(word);
  }

  /** False when no word has these lane hashes (see hashTextA/B); true means "maybe". */
  mayContain(hashA: number, hashB: number): boolean {
    const a = finish(hashA) & (FILTER_BITS - 1);
    const b = finish(hashB) & (FILTER_BITS - 1);
    return (
      (this.filter[a >>> 5] & (1 << (a & 31))) !== 0 &&
      (this.filter[b >>> 5] & (1 << (b & 31))) !== 0
    );
  }

  add(word: string, flags: string): void {
    const existing = this.words.get(word);
    if (existing === undefined) {
      this.words.set(word, flags);
      const a = finish(hashTextA(HASH_SEED_A, word)) & (FILTER_BITS - 1);
      const b = finish(hashTextB(HASH_SEED_B, word)) & (FILTER_BITS - 1);
      this.filter[a >>> 5] |= 1 << (a & 31);
      this.filter[b >>> 5] |= 1 << (b & 31);
    } else if (typeof existing === 'string') {
      this.words.set(word, [existing, flags]);
    } else existing.push(flags);
  }
}

/** The first homonym's flags (hunspell checks FORBIDDENWORD on that one only). */
export function firstFlags(homonyms: Homonyms): string {
  return typeof homonyms === 'string' ? homonyms : homonyms[0];
}

export function homonymList(homonyms: Homonyms): readonly string[] {
  return typeof homonyms === 'string' ? [homonyms] : homonyms;
}

export function parseDictionaryFile(
  text: string,
  forbiddenFlag: string,
): WordTable {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const firstBreak = body.indexOf('\n');
  const count = Number.parseInt(
    body.slice(0, firstBreak < 0 ? body.length : firstBreak),
    10,
  );
  if (!(count > 0))
    throw new UnsupportedDictionaryFileError(
      'dictionary file: the first line must be the word count',
    );
  const table = new WordTable();
  // Identical flag strings share one string: most of the 300k lines use a few hundred.
  const interned = new Map<string, string>();
  const hidden: Array<[string, string]> = [];
  let lineNumber = 1;
  // Lines are sliced straight from the text (no intermediate array of 300k lines).
  for (let start = firstBreak + 1; firstBreak >= 0 && start < body.length; ) {
    let end = body.indexOf('\n', start);
    if (end < 0) end = body.length;
    lineNumber++;
    let line = body.slice(start, end);
    start = end + 1;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line === '') continue;
    if (line.includes(' ') || line.includes('\t'))
      throw new UnsupportedDictionaryFileError(
        `dictionary file line ${lineNumber}: morphological fields are not implemented`,
      );
    const [word, rawFlags] = splitEntry(line, lineNumber);
    let flags = interned.get(rawFlags);
    if (flags === undefined) {
      flags = flagBytes(rawFlags);
      interned.set(rawFlags, flags);
    }
    table.add(word, flags);
    const type = capType(word);
    const hiddenNeeded =
      type === CapType.Mixed ||
      type === CapType.MixedInitial ||
      (type === CapType.All && flags !== '');
    if (hiddenNeeded && !(forbiddenFlag && flags.includes(forbiddenFlag)))
      hidden.push([capitalise(word), flags + ONLY_UPCASE]);
  }
  // A real entry wins over a hidden one whatever the order; of several hidden ones, the first.
  for (const [word, flags] of hidden) {
    if (table.get(word) === undefined) table.add(word, flags);
  }
  return table;
}

/** Splits `word/flags`; `\/` is a slash inside the word. */
function splitEntry(line: string, lineNumber: number): [string, string] {
  if (line.startsWith('/'))
    throw new UnsupportedDictionaryFileError(
      `dictionary file line ${lineNumber}: a word starting with a slash is not supported`,
    );
  let searchFrom = 1;
  for (;;) {
    const slash = line.indexOf('/', searchFrom);
    if (slash < 0) return [unescapeSlashes(line), ''];
    if (line[slash - 1] !== '\\')
      return [unescapeSlashes(line.slice(0, slash)), line.slice(slash + 1)];
    searchFrom = slash + 1;
  }
}

function unescapeSlashes(word: string): string {
  return word.includes('\\/') ? word.replace(/\\\//g, '/') : word;
}
