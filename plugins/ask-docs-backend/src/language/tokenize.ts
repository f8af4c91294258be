/**
 * Word tokenizer and diacritics folding shared by every language.
 *
 * Tokens are lowercased runs of Unicode letters, marks and digits. Punctuation, underscores,
 * dots and slashes split words, so `max_connections`, `pg_dump` and `pyladies.cz` become their
 * parts both in documents and in questions, which is all keyword matching needs.
 */

/** Longer runs are hashes, base64 or URLs glued together: never useful as keywords. */
export const MAX_TOKEN_LENGTH = 64;
/** Raise when tokens change: documents analysed under another version are analysed again. */
export const TOKENIZER_VERSION = 2;
// Invisible characters (soft hyphen, zero-width space and joiners, BOM) inside a word: text
// pasted from chat tools or hyphenated pages carries them, and they must not split the word.
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

// A word, optionally joined to further words by an apostrophe or a hyphen (no spaces).
const WORD = /[\p{L}\p{M}\p{N}]+(?:['’ʼ\-‐‑][\p{L}\p{M}\p{N}]+)*/gu;
const HYPHENS = /[-‐‑]/;
const APOSTROPHES = /[’ʼ]/g;
const APOSTROPHE = /['’ʼ]/;
const HAS_LETTER = /\p{L}/u;

/**
 * Splits text into lowercase word tokens.
 *
 * - Hyphenated words become their parts ("read-only" → read, only; "je-li" → je, li),
 *   except when the first part is a single letter ("e-mail", "x-ray"): such prefixes are
 *   meaningless alone, so the word is joined ("email") and matches its unhyphenated spelling.
 * - An English possessive "'s" is dropped ("user's" → user); other internal apostrophes stay
 *   ("don't", "o'reilly"), typographic ones normalised to "'".
 * - Text is NFC-normalised first, so decomposed Czech input ("c" + combining caron) tokenizes
 *   the same as precomposed; invisible characters (soft hyphen, zero-width space) are dropped,
 *   so "ná\u00advod" is one word.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  if (!text) return out;
  // match() hands back plain strings: no match object per word (this runs on every candidate
  // passage of every question, and on every page at ingestion).
  for (const found of text
    // Dropped before composing, so "c" + soft hyphen + caron composes to "č".
    .replace(IGNORABLE, '')
    .normalize('NFC')
    .match(WORD) ?? []) {
    let word = found.toLowerCase();
    if (APOSTROPHE.test(word)) {
      word = word.replace(APOSTROPHES, "'");
      if (word.endsWith("'s")) word = word.slice(0, -2);
    }
    if (HYPHENS.test(word)) {
      const parts = word.split(/[-‐‑]+/).filter(Boolean);
      if (
        parts.length > 1 &&
        parts[0].length === 1 &&
        HAS_LETTER.test(parts[0])
      ) {
        push(out, parts.join(''));
      } else {
        for (const part of parts) push(out, part);
      }
      continue;
    }
    push(out, word);
  }
  return out;
}

const QUOTE = 39; // "'"

function push(out: string[], word: string): void {
  // A stray apostrophe left at an edge ("'s" alone) is not a word.
  let start = 0;
  let end = word.length;
  while (start < end && word.charCodeAt(start) === QUOTE) start++;
  while (end > start && word.charCodeAt(end - 1) === QUOTE) end--;
  const trimmed =
    start > 0 || end < word.length ? word.slice(start, end) : word;
  if (trimmed && trimmed.length <= MAX_TOKEN_LENGTH) out.push(trimmed);
}

// Letters that Unicode decomposition does not reduce to a base letter plus marks.
const SPECIAL_FOLDS: Record<string, string> = {
  ł: 'l',
  đ: 'd',
  ø: 'o',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ı: 'i',
  ŀ: 'l',
  þ: 'th',
};
const SPECIALS = new RegExp(`[${Object.keys(SPECIAL_FOLDS).join('')}]`, 'g');
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const MARKS = /\p{M}+/gu;

/**
 * Removes diacritics from a lowercase word: "záložky" → "zalozky", "ůčet" → "ucet".
 *
 * All lemma and stem keys are stored folded and queries are folded the same way, so a
 * question typed without diacritics still meets the document's keys (see README.md).
 */
export function foldDiacritics(word: string): string {
  if (ASCII_ONLY.test(word)) return word;
  return word
    .normalize('NFD')
    .replace(MARKS, '')
    .replace(SPECIALS, c => SPECIAL_FOLDS[c])
    .normalize('NFC');
}

/** True when folding would change the word, i.e. it carries diacritics. */
export function hasDiacritics(word: string): boolean {
  return !ASCII_ONLY.test(word) && foldDiacritics(word) !== word;
}

/** True when the token has at least one letter (pure numbers are never stemmed or lemmatised). */
export function hasLetter(token: string): boolean {
  return HAS_LETTER.test(token);
}

/**
 * The lowercase accented letters of Latin-1 and Latin Extended-A that fold to one ASCII letter
 * ("á" → "a", "ř" → "r"), as two strings for SQL's translate(): a database folds words as
 * foldDiacritics does without a function of its own. Letters that fold to two ("ß") are left out.
 */
export const LETTER_FOLDS: { from: string; to: string } = (() => {
  let from = '';
  let to = '';
  for (let code = 0xe0; code <= 0x17f; code++) {
    const letter = String.fromCodePoint(code);
    const base = foldDiacritics(letter);
    if (letter === letter.toLowerCase() && /^[a-z]$/.test(base)) {
      from += letter;
      to += base;
    }
  }
  return { from, to };
})();

/** The accented letters that fold to each ASCII letter ("s" → "śŝşš"). */
export const ACCENTED_FORMS: ReadonlyMap<string, string[]> = (() => {
  const forms = new Map<string, string[]>();
  Array.from(LETTER_FOLDS.from).forEach((letter, i) => {
    const base = LETTER_FOLDS.to[i];
    forms.set(base, [...(forms.get(base) ?? []), letter]);
  });
  return forms;
})();
