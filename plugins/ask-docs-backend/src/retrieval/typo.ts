import type { IndexReader } from '../database/IndexReader';
import type {
  ChunkSelection,
  RetrievalScope,
} from '../database/visibilityPredicate';
import { isSpellingVariant } from '../language/spellingVariants';
import { foldDiacritics } from '../language/tokenize';
import { exactKeys, normaliseTokens, QueryToken } from './keywordSearch';

export interface Correction {
  from: string;
  to: string;
  distance: number;
  /** Visible chunks containing the suggested word. */
  df: number;
  /** A slip rather than a guess (isConfidentCorrection): it counts as the word itself. */
  confident: boolean;
}

/** Words at least this long have few neighbours one slip away. */
export const CONFIDENT_MIN_LENGTH = 6;

/**
 * Whether a correction is as sure as a typing slip gets: the same word without its accents
 * ("sablony" → "šablony") or in its other spelling ("minimise" → "minimize"), or one slip (a
 * letter swapped, left out, doubled or mistyped; accents aside) in a lowercase word of six or
 * more letters that keeps its first letter. Most misspellings are one such slip and the first
 * letter is rarely the one missed, while an unknown name that happens to be near a docs word
 * usually differs in it ("Procreate" → "recreate") or is typed capitalised ("Gradle" → "grade",
 * "PostgREST" → "postgres"). The British spelling of an English word is sure only of its
 * American spelling ("parallelise" is "parallelize", not "parallelism").
 * A word of six letters typed with one left out ("vauum", "seral") is as sure when it is the
 * only visible word that close with that first letter (`onlyNeighbour`): five-letter words
 * have many neighbours, so a letter left out is a slip only when nothing else is that near.
 */
export function isConfidentCorrection(
  from: string,
  to: string,
  distance: number,
  options: {
    capitalised?: boolean;
    britishSpelling?: boolean;
    onlyNeighbour?: boolean;
  } = {},
): boolean {
  // Without diacritics, as the candidates are compared (suggestCorrections).
  const typed = foldDiacritics(from.toLowerCase());
  const meant = foldDiacritics(to.toLowerCase());
  // The same word but for its accents, or in its other spelling.
  if (typed === meant || isSpellingVariant(typed, meant)) return true;
  if (options.capitalised || options.britishSpelling) return false;
  const letters = Array.from(typed);
  const meantLength = Array.from(meant).length;
  const long =
    letters.length >= CONFIDENT_MIN_LENGTH ||
    (options.onlyNeighbour === true &&
      letters.length === CONFIDENT_MIN_LENGTH - 1 &&
      meantLength === CONFIDENT_MIN_LENGTH);
  return distance === 1 && long && letters[0] === Array.from(meant)[0];
}

export interface TypoOptions {
  /** Words shorter than this are never corrected (too many near neighbours). */
  minWordLength?: number;
  /** Words up to this length allow one edit; longer words two. */
  shortWordMaxLength?: number;
  /** Cap on vocabulary candidates fetched and compared per word (closest lengths first). */
  maxCandidates?: number;
  /** Cap on words tried per question (one vocabulary query each); later words stay as typed. */
  maxWords?: number;
  /** Longer words are never corrected (identifiers, pasted noise), keeping comparisons cheap. */
  maxWordLength?: number;
}

const DEFAULTS = {
  minWordLength: 4,
  shortWordMaxLength: 6,
  maxCandidates: 2000,
  maxWords: 8,
  maxWordLength: 40,
};

/**
 * Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions),
 * giving up early once it must exceed `max`; returns max + 1 then.
 */
export function boundedDamerauLevenshtein(
  a: string,
  b: string,
  max: number,
): number {
  const s = Array.from(a);
  const t = Array.from(b);
  if (Math.abs(s.length - t.length) > max) return max + 1;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, current[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        d = Math.min(d, prevPrev[j - 2] + 1);
      }
      current.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    prevPrev = prev;
    prev = current;
  }
  return Math.min(prev[t.length], max + 1);
}

/**
 * Spelling suggestions from the asker's OWN visible vocabulary (the surface words of visible
 * entities, counted in chunks), for tokens that have no visible exact key. A word that exists
 * only in documents the asker cannot see is neither a reason to skip correction nor ever
 * suggested.
 */
export async function suggestCorrections(
  options: {
    /** The asker's reads of the index (bound to their visibility). */
    reader: IndexReader;
    selection?: RetrievalScope & Pick<ChunkSelection, 'fewVisible'>;
    queryTokens: QueryToken[];
    /**
     * The caller has found that none of these tokens has a visible exact key (keywordStatistics:
     * match 'none', over the same chunks), so that check is not read again; it still is for a
     * token whose surface forms are not among its words (its keys here would differ).
     */
    unmatched?: boolean;
  } & TypoOptions,
): Promise<Correction[]> {
  const { reader, selection } = options;
  const minWordLength = options.minWordLength ?? DEFAULTS.minWordLength;
  const shortWordMaxLength =
    options.shortWordMaxLength ?? DEFAULTS.shortWordMaxLength;
  const maxCandidates = options.maxCandidates ?? DEFAULTS.maxCandidates;
  const maxWords = options.maxWords ?? DEFAULTS.maxWords;
  const maxWordLength = options.maxWordLength ?? DEFAULTS.maxWordLength;
  // The surface form itself counts as a key: a visible word is never "corrected".
  const tokens = normaliseTokens(options.queryTokens).map(t => ({
    ...t,
    words: Array.from(
      new Set([...(t.words ?? []), t.token, t.token.toLowerCase()]),
    ),
  }));
  if (tokens.length === 0) return [];

  const sameKeys = options.queryTokens.every(t =>
    [t.token, t.token.toLowerCase()].every(w => (t.words ?? []).includes(w)),
  );
  const known =
    options.unmatched && sameKeys
      ? new Set<number>()
      : await reader.tokensWithVisibleKeys(exactKeys(tokens), selection);

  const words: Array<{ t: QueryToken; word: string; chars: string[] }> = [];
  for (const [tok, t] of tokens.entries()) {
    // Compared without diacritics: a word typed without them and with a slip ("vthlazovani")
    // is one slip from the docs' "vyhlazování", not three.
    const word = foldDiacritics(t.token.toLowerCase());
    const chars = Array.from(word);
    // Numbers, versions and identifiers with digits are not misspellings of words.
    if (
      known.has(tok) ||
      chars.length < minWordLength ||
      chars.length > maxWordLength ||
      /\d/.test(word)
    )
      continue;
    if (words.length >= maxWords) break;
    words.push({ t, word, chars });
  }
  // The words are independent: look them up at once (a question costs the slowest lookup).
  // Candidates first, by the key dictionary and an existence probe of a visible list (cheap:
  // no list is summed); the visible df only of the few within reach.
  const near = await Promise.all(
    words.map(async ({ t, word, chars }) => {
      const maxDistance = chars.length <= shortWordMaxLength ? 1 : 2;
      // The dictionary's visible words within reach by letters and length (spellingCandidates);
      // past the cap, the lengths closest to the word's are kept.
      const candidates = await reader.spellingCandidates(
        { word, maxEdits: maxDistance, limit: maxCandidates },
        selection,
      );
      const within = candidates.flatMap(term => {
        if (term.toLowerCase() === t.token.toLowerCase()) return [];
        const candidate = foldDiacritics(term.toLowerCase());
        // 0 for the same word but for its accents ("sablony" typed in an English question,
        // "šablony" in the docs: the languages' keys differ).
        const distance = boundedDamerauLevenshtein(
          word,
          candidate,
          maxDistance,
        );
        if (distance > maxDistance) return [];
        // A dictionary word is no misspelling: "cable" absent from the docs is not their
        // "table". Only its other spelling ("minimise" → "minimize") is the same word.
        if (
          t.dictionaryWord &&
          distance > 0 &&
          !isSpellingVariant(word, candidate)
        )
          return [];
        // With the accents as typed: "podějovat" is nearer "poděkovat" than "podekovat".
        const asTyped = boundedDamerauLevenshtein(
          t.token.toLowerCase(),
          term.toLowerCase(),
          maxDistance + 2,
        );
        return [{ term, distance, asTyped }];
      });
      // Past the cap a neighbour may be missing, so none is known to be the only one.
      return { within, complete: candidates.length < maxCandidates };
    }),
  );
  const terms = Array.from(
    new Set(near.flatMap(n => n.within).map(n => n.term)),
  );
  const dfOf = await reader.wordDf(terms, selection);
  const corrections: Correction[] = [];
  words.forEach(({ t, chars }, i) => {
    // Visible words one slip away that keep the first letter: the only one is a sure slip of
    // a letter left out (isConfidentCorrection).
    const neighbours = new Set(
      near[i].within
        .map(n => n.distance === 1 && foldDiacritics(n.term.toLowerCase()))
        .filter(w => w && w.startsWith(chars[0])),
    ).size;
    let best: Correction | undefined;
    let bestAsTyped = Infinity;
    for (const { term, distance, asTyped } of near[i].within) {
      const df = dfOf.get(term);
      if (!df) continue; // gone (or hidden) since the candidates were read
      // At the same distance the word nearest as typed wins (the accents the asker typed are
      // the docs word's), then its other spelling ("parallelise" → "parallelize", not the more
      // frequent "parallelism"), then the more frequent word.
      const variant = isSpellingVariant(
        t.token.toLowerCase(),
        term.toLowerCase(),
      );
      const bestVariant =
        best !== undefined &&
        isSpellingVariant(t.token.toLowerCase(), best.to.toLowerCase());
      if (
        !best ||
        distance < best.distance ||
        (distance === best.distance &&
          (asTyped !== bestAsTyped
            ? asTyped < bestAsTyped
            : variant !== bestVariant
            ? variant
            : df > best.df || (df === best.df && term < best.to)))
      ) {
        bestAsTyped = asTyped;
        best = {
          from: t.token,
          to: term,
          distance,
          df,
          confident: isConfidentCorrection(t.token, term, distance, {
            capitalised: t.capitalised,
            britishSpelling: t.britishSpelling,
            onlyNeighbour: near[i].complete && neighbours === 1,
          }),
        };
      }
    }
    if (best) corrections.push(best);
  });
  return corrections;
}
