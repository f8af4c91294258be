/*
 * Word translations between two configured languages, read at run time from a dictd dictionary
 * (FreeDict's eng-ces in Debian's dict-freedict-eng-ces: GPL data, never vendored). Questions in
 * one language about documents in the other match through them (prepareQuestion); the index is
 * not touched, so a dictionary can be switched on or off without re-ingesting.
 */
import fs from 'fs';
import zlib from 'zlib';
import { normalizeLanguage } from './languageCode';
import { foldDiacritics, hasDiacritics } from './tokenize';
import type { Analyzers, LanguageAnalyzer, LanguageProfile } from './types';

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
   * sorted; empty when it has none.
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
/** A headword: letters with inner hyphens; contractions ("we'll", "let's") are not lemmas. */
const HEADWORD = /^\p{L}+(?:-\p{L}+)*$/u;

/** The text without parenthesised explanations, nested ones too; an unclosed one ends it. */
function withoutExplanations(text: string): string {
  let out = text;
  for (let before = ''; before !== out; ) {
    before = out;
    out = out.replace(/\([^()]*\)/g, ' ');
  }
  return out.replace(/\(.*$/, ' ');
}

/**
 * The headword of one dictd entry (its first line without the "<n>"-style part of speech,
 * lowercase; the .index key has its punctuation removed, "we'll" filed as "well") and its
 * single-word translations: the lines after it without "[domain]" labels, explanations and
 * "Note:" lines (which quote inflected forms), split at commas and semicolons.
 */
export function parseEntry(entry: string): {
  headword: string;
  translations: string[];
} {
  const [first, ...lines] = entry.split('\n');
  const translations: string[] = [];
  for (const line of lines) {
    if (/^\s*note:/i.test(line)) continue;
    const plain = withoutExplanations(
      line.replace(/\[[^\]]*\]/g, ' ').replace(/<[^>]*>/g, ' '),
    );
    for (const part of plain.split(/[,;]/)) {
      const word = part.trim().toLowerCase();
      if (SINGLE_WORD.test(word)) translations.push(word);
    }
  }
  return {
    headword: first
      .replace(/<[^>]*>/g, ' ')
      .trim()
      .toLowerCase(),
    translations,
  };
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
      `bilingual dictionary: ${files.path}.index does not exist ` +
        '(askDocs.bilingualDictionary.path ' +
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
    const [key, offset, length] = line.split('\t');
    if (!length || key.startsWith('00database')) continue;
    const start = decodeDictdNumber(offset);
    const { headword, translations } = parseEntry(
      dict.subarray(start, start + decodeDictdNumber(length)).toString('utf8'),
    );
    if (!HEADWORD.test(headword)) continue;
    entries += 1;
    for (const word of translations) {
      if (word === headword) continue;
      add(forward, foldDiacritics(headword), word);
      add(backward, foldDiacritics(word), headword);
    }
  }
  if (entries === 0)
    throw new Error(`bilingual dictionary ${files.path}: no entries read`);
  const sorted = (map: Map<string, Set<string>>) =>
    new Map([...map].map(([key, words]) => [key, [...words].sort()]));
  const byLang = new Map([
    [from, sorted(forward)],
    [to, sorted(backward)],
  ]);
  return {
    languages: [from, to],
    translate: (lang, lemma) =>
      byLang.get(normalizeLanguage(lang))?.get(lemma) ?? [],
  };
}

/** Lemma keys of a language's function words (`je`, `jsou` → být): translations never use them. */
const functionWordKeys = new WeakMap<LanguageAnalyzer, Set<string>>();
function functionWordLemmas(
  analyzer: LanguageAnalyzer,
  profile: LanguageProfile | undefined,
): Set<string> {
  let keys = functionWordKeys.get(analyzer);
  if (!keys) {
    keys = new Set(
      [...(profile?.stopwords ?? [])].flatMap(
        w => analyzer.keysForWord(w).lemmas,
      ),
    );
    functionWordKeys.set(analyzer, keys);
  }
  return keys;
}

/**
 * Lemma keys of a question word's translations, as the other language's analyzer makes them
 * (so they match that language's indexed words). A word is read in each configured language
 * (`byLang`); a reading is translated only when it is plausible:
 * - in `questionLang` alone when the question clearly is in one language ("copy" in an English
 *   question is not the Czech "cop", braid);
 * - never in a language without distinctive letters for a word that has diacritics ("malé" is
 *   not English "male");
 * - not when its lemmas have more than MAX_TRANSLATIONS translations together (too many senses).
 * Translations that are function words of either language, or share a lemma key with one
 * ("byt" with být), are dropped: such a key would match nearly every chunk. No stem keys: a
 * translation is already a guess, and short stems of it ("přij" of příjem) reach unrelated
 * words. Empty without a dictionary.
 */
export function translationKeys(
  word: {
    token: string;
    byLang: ReadonlyArray<{ lang: string; lemmas: readonly string[] }>;
  },
  analyzers: Pick<Analyzers, 'dictionary' | 'has' | 'get' | 'profiles'>,
  questionLang?: string,
): string[] {
  const dictionary = analyzers.dictionary;
  if (!dictionary) return [];
  const profile = (lang: string) =>
    analyzers.profiles.find(p => normalizeLanguage(p.lang) === lang);
  const keys = new Set<string>();
  const [a, b] = dictionary.languages;
  for (const reading of word.byLang) {
    const other = reading.lang === a ? b : reading.lang === b ? a : undefined;
    if (!other || !analyzers.has(other)) continue;
    if (questionLang && reading.lang !== questionLang) continue;
    if (hasDiacritics(word.token) && !profile(reading.lang)?.distinctiveLetters)
      continue;
    const translations = new Set(
      reading.lemmas.flatMap(l => dictionary.translate(reading.lang, l)),
    );
    if (translations.size > MAX_TRANSLATIONS) continue;
    const source = analyzers.get(reading.lang);
    const target = analyzers.get(other);
    const functionKeys = functionWordLemmas(target, profile(other));
    for (const translation of translations) {
      if (source.isStopword(translation) || target.isStopword(translation))
        continue;
      for (const key of target.keysForWord(translation).lemmas)
        if (!functionKeys.has(key)) keys.add(key);
    }
  }
  return [...keys];
}
