/*
 * Word translations between two configured languages, read at run time from a dictd dictionary
 * (FreeDict's eng-ces in Debian's dict-freedict-eng-ces: GPL data, never vendored). Questions in
 * one language about documents in the other match through them (prepareQuestion); the index is
 * not touched, so a dictionary can be switched on or off without re-ingesting.
 */
import fs from 'fs';
import zlib from 'zlib';
import { normalizeLanguage } from './createLanguageAnalyzers';
import { foldDiacritics } from './tokenize';
import type { Analyzers } from './types';

export interface BilingualDictionaryFiles {
  /** The dictd files without their extensions: `<path>.index` and `<path>.dict.dz` (or `.dict`). */
  path: string;
  /** Language of the headwords, e.g. 'en'. */
  from: string;
  /** Language of the translations, e.g. 'cs'. */
  to: string;
}

export interface BilingualDictionary {
  /** The two languages, headwords' first. */
  readonly languages: readonly [string, string];
  /**
   * Single words of the other language that translate `lemma` (a folded lemma key of `lang`),
   * empty when it has none or more than MAX_TRANSLATIONS.
   */
  translate(lang: string, lemma: string): readonly string[];
}

/**
 * A word with more translations than this has too many senses to stand for one ("set": sada,
 * nastavit, soubor, souprava, ... 35 in FreeDict; "run" 26): it is left untranslated. The
 * dictionary lists senses in no order of frequency, so keeping only some would keep arbitrary ones.
 */
export const MAX_TRANSLATIONS = 16;

// dictd stores offsets and lengths as base-64 numbers in this alphabet.
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function decodeDictdNumber(text: string): number {
  let n = 0;
  for (const c of text) {
    const digit = B64.indexOf(c);
    if (digit < 0) throw new Error(`not a dictd number: ${text}`);
    n = n * 64 + digit;
  }
  return n;
}

/** One word, letters with inner hyphens or apostrophes only: phrases are not keys. */
const SINGLE_WORD = /^\p{L}+(?:[-'’]\p{L}+)*$/u;

/**
 * The single-word translations of one dictd entry: lines after the headword, without "[domain]"
 * labels and "(explanations)", split at commas and semicolons.
 */
export function entryTranslations(entry: string): string[] {
  const [, ...lines] = entry.split('\n');
  const words: string[] = [];
  for (const line of lines) {
    const plain = line
      .replace(/\[[^\]]*\]/g, ' ')
      .replace(/\([^)]*\)/g, ' ')
      .replace(/<[^>]*>/g, ' ');
    for (const part of plain.split(/[,;]/)) {
      const word = part.trim().toLowerCase();
      if (SINGLE_WORD.test(word)) words.push(word);
    }
  }
  return words;
}

function readDict(path: string): Buffer {
  if (fs.existsSync(`${path}.dict.dz`))
    // dictzip is gzip with a random-access table in the extra field: gunzip reads it whole.
    return zlib.gunzipSync(fs.readFileSync(`${path}.dict.dz`));
  if (fs.existsSync(`${path}.dict`)) return fs.readFileSync(`${path}.dict`);
  throw new Error(
    `bilingual dictionary: neither ${path}.dict.dz nor ${path}.dict exists`,
  );
}

/** Reads a dictd dictionary into translations both ways (headword lemmas ↔ single words). */
export function readBilingualDictionary(
  files: BilingualDictionaryFiles,
): BilingualDictionary {
  const from = normalizeLanguage(files.from);
  const to = normalizeLanguage(files.to);
  if (from === to)
    throw new Error(`bilingual dictionary: from and to are both '${from}'`);
  if (!fs.existsSync(`${files.path}.index`))
    throw new Error(
      `bilingual dictionary: ${files.path}.index does not exist (askDocs.bilingualDictionary.path ` +
        'names the dictd files without extensions; FreeDict eng-ces is in the Debian package ' +
        'dict-freedict-eng-ces)',
    );
  const index = fs.readFileSync(`${files.path}.index`, 'utf8');
  const dict = readDict(files.path);
  const forward = new Map<string, Set<string>>();
  const backward = new Map<string, Set<string>>();
  const add = (map: Map<string, Set<string>>, key: string, word: string) =>
    map.set(key, (map.get(key) ?? new Set<string>()).add(word));
  let entries = 0;
  for (const line of index.split('\n')) {
    const [headword, offset, length] = line.split('\t');
    if (!length || headword.startsWith('00database')) continue;
    const head = headword.trim().toLowerCase();
    if (!SINGLE_WORD.test(head)) continue;
    const start = decodeDictdNumber(offset);
    const entry = dict
      .subarray(start, start + decodeDictdNumber(length))
      .toString('utf8');
    entries += 1;
    for (const word of entryTranslations(entry)) {
      if (word === head) continue;
      add(forward, foldDiacritics(head), word);
      add(backward, foldDiacritics(word), head);
    }
  }
  if (entries === 0)
    throw new Error(`bilingual dictionary ${files.path}: no entries read`);
  const usable = (map: Map<string, Set<string>>) =>
    new Map(
      [...map]
        .filter(([, words]) => words.size <= MAX_TRANSLATIONS)
        .map(([key, words]) => [key, [...words].sort()]),
    );
  const byLang = new Map([
    [from, usable(forward)],
    [to, usable(backward)],
  ]);
  return {
    languages: [from, to],
    translate: (lang, lemma) =>
      byLang.get(normalizeLanguage(lang))?.get(lemma) ?? [],
  };
}

/**
 * Lemma keys of a question word's translations: for each language's lemma of the word that the
 * dictionary translates, the lemma keys of each translation as the other language's analyzer
 * makes them (so they match that language's indexed words). No stem keys: a translation is
 * already a guess, and short stems of it ("přij" of příjem) would reach unrelated words. Empty
 * without a dictionary.
 */
export function translationKeys(
  byLang: ReadonlyArray<{ lang: string; lemmas: readonly string[] }>,
  analyzers: Pick<Analyzers, 'dictionary' | 'has' | 'get'>,
): string[] {
  const dictionary = analyzers.dictionary;
  if (!dictionary) return [];
  const keys = new Set<string>();
  const [a, b] = dictionary.languages;
  for (const word of byLang) {
    const other = word.lang === a ? b : word.lang === b ? a : undefined;
    if (!other || !analyzers.has(other)) continue;
    const analyzer = analyzers.get(other);
    for (const lemma of word.lemmas)
      for (const translation of dictionary.translate(word.lang, lemma))
        analyzer.keysForWord(translation).lemmas.forEach(l => keys.add(l));
  }
  return [...keys];
}
