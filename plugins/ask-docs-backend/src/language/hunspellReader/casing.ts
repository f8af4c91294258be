/**
 * Hunspell's case model: one UTF-16 unit maps to one unit (no "ß" → "SS"), and a word is
 * classified by how many of its letters are upper case.
 */

export enum CapType {
  /** No upper-case letter. */
  None,
  /** Only the first letter is upper case ("Praha"). */
  Initial,
  /** Every cased letter is upper case ("PRAHA", "ČR2"). */
  All,
  /** Mixed, starting lower ("iPhone"). */
  Mixed,
  /** Mixed, starting upper ("McDonald"). */
  MixedInitial,
}

/** Hunspell does not classify or convert longer words (its MAXWORDLEN). */
export const MAX_WORD_UNITS = 100;

// Unit-to-unit tables, built on first use (64k entries each). Where Unicode maps one
// character to several ("İ" → "i̇", "ß" → "SS"), hunspell's table keeps one unit: the ASCII
// base letter for lower case, the character itself for upper case.
let lowerTable: Uint16Array | undefined;
let upperTable: Uint16Array | undefined;

function buildTables(): void {
  const lower = new Uint16Array(0x10000);
  const upper = new Uint16Array(0x10000);
  for (let code = 0; code < 0x10000; code++) {
    const s = String.fromCharCode(code);
    const l = s.toLowerCase();
    const u = s.toUpperCase();
    if (l.length === 1) lower[code] = l.charCodeAt(0);
    else lower[code] = l.charCodeAt(0) < 0x80 ? l.charCodeAt(0) : code;
    upper[code] = u.length === 1 ? u.charCodeAt(0) : code;
  }
  lowerTable = lower;
  upperTable = upper;
}

function lowerUnit(code: number): number {
  if (!lowerTable) buildTables();
  return lowerTable![code];
}

function upperUnit(code: number): number {
  if (!upperTable) buildTables();
  return upperTable![code];
}

export function toLower(word: string): string {
  let out = '';
  for (let i = 0; i < word.length; i++) {
    out += String.fromCharCode(lowerUnit(word.charCodeAt(i)));
  }
  return out;
}

/** First unit upper-cased, the rest unchanged. */
export function toInitialUpper(word: string): string {
  if (!word) return word;
  return String.fromCharCode(upperUnit(word.charCodeAt(0))) + word.slice(1);
}

/** Hunspell's capitalisation of a dictionary word or input: lower-case all, then the first. */
export function capitalise(word: string): string {
  return toInitialUpper(toLower(word));
}

/** True when the word has a character outside the Basic Multilingual Plane. */
export function hasAstral(word: string, limit = word.length): boolean {
  const end = Math.min(limit, word.length);
  for (let i = 0; i < end; i++) {
    const code = word.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) return true;
  }
  return false;
}

/**
 * Hunspell's classification. Words with an astral character or of MAX_WORD_UNITS or more
 * units count as uncapitalised (hunspell cannot convert them).
 */
export function capType(word: string): CapType {
  if (word.length >= MAX_WORD_UNITS || hasAstral(word)) return CapType.None;
  let upper = 0;
  let neutral = 0;
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    const lower = lowerUnit(code);
    if (lower !== code) upper++;
    if (upperUnit(code) === lower) neutral++;
  }
  if (upper === 0) return CapType.None;
  const first = word.charCodeAt(0);
  const firstUpper = lowerUnit(first) !== first;
  if (upper === 1 && firstUpper) return CapType.Initial;
  if (upper === word.length || upper + neutral === word.length)
    return CapType.All;
  return firstUpper ? CapType.MixedInitial : CapType.Mixed;
}
