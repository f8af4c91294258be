/**
 * Text → keyword postings (ingestion) and question → per-token keys (query time).
 */
import { normalizeLanguage } from './languageCode';
import { hasDiacritics, hasLetter, tokenize } from './tokenize';
import {
  AnalyzedText,
  Analyzers,
  QueryToken,
  QueryTokenKeys,
  RestoreBudget,
  TermCount,
  TermKind,
} from './types';

/** Dictionary lookups a question may spend on restoring diacritics (~0.05–0.4 s at most). */
export const DEFAULT_MAX_RESTORE_LOOKUPS = 10_000;
/**
 * Words joined by '_', or by '.' before a lowercase letter or digit, without spaces:
 * identifiers and file names (`pg_stat_io`, `zalozky.json`), not "nefunguji.Co" or
 * "přidat/odebrat".
 */
const IDENTIFIER = /[\p{L}\p{N}]+(?:(?:_|\.(?=[\p{Ll}\p{N}]))[\p{L}\p{N}]+)+/gu;

export interface AnalyzeTextOptions {
  /**
   * Leave stopwords out of the lemma and stem postings (they still count in tokenCount and
   * stay in the 'w' vocabulary). Off by default: one row per chunk and stopword is cheap, and
   * in technical text some are keywords ("not", "all", "on" in SQL).
   */
  dropStopwords?: boolean;
}

/** The keyword keys of one chunk (posting-list entries) in the given (configured) language. */
export function analyzeText(
  text: string,
  lang: string,
  analyzers: Analyzers,
  options: AnalyzeTextOptions = {},
): AnalyzedText {
  const analyzer = analyzers.get(lang);
  const tokens = tokenize(text);
  const counts: Record<TermKind, Map<string, number>> = {
    l: new Map(),
    s: new Map(),
    w: new Map(),
  };
  const add = (kind: TermKind, term: string) => {
    const map = counts[kind];
    map.set(term, (map.get(term) ?? 0) + 1);
  };
  for (const token of tokens) {
    add('w', token);
    if (options.dropStopwords && analyzer.isStopword(token)) continue;
    const keys = analyzer.keysForWord(token);
    for (const lemma of keys.lemmas) add('l', lemma);
    add('s', keys.stem);
  }
  const terms: TermCount[] = [];
  for (const kind of ['l', 's', 'w'] as const) {
    for (const [term, tf] of counts[kind]) terms.push({ kind, term, tf });
  }
  return { terms, tokenCount: tokens.length };
}

export interface AnalyzeQueryOptions {
  /**
   * Diacritic restoration for languages that support it (Czech): 'auto' restores words the
   * dictionary does not know ("zalozky" → záložky), and, when the question has no diacritics
   * at all and some word needed restoring, also known words ("byt" → být too). 'always'
   * restores every word without diacritics; 'never' turns it off.
   */
  restoreDiacritics?: 'auto' | 'always' | 'never';
  /** Words restored per language and question at most. Default 16. */
  maxRestoredWords?: number;
  /**
   * Dictionary lookups one question may spend restoring diacritics (each 5–40 µs), so that a
   * question of made-up long words cannot hold the server. Default 10 000.
   */
  maxRestoreLookups?: number;
  /**
   * Return stopword tokens too (flagged `stopword: true`). By default they are left out,
   * unless the question has nothing else ("to be or not to be").
   */
  includeStopwords?: boolean;
}

/**
 * Keys of each distinct question token in each given language (all configured languages
 * when none are given). The question's language is often unknown, or differs from the
 * documents', so several can be analysed; `byLang[i]` holds the keys to match against terms
 * of that language, `lemmas`/`stems`/`words` their union.
 */
export function analyzeQuery(
  text: string,
  analyzers: Analyzers,
  options?: AnalyzeQueryOptions,
): QueryToken[];
export function analyzeQuery(
  text: string,
  langs: string | string[],
  analyzers: Analyzers,
  options?: AnalyzeQueryOptions,
): QueryToken[];
export function analyzeQuery(
  text: string,
  ...rest:
    | [Analyzers, AnalyzeQueryOptions?]
    | [string | string[], Analyzers, AnalyzeQueryOptions?]
): QueryToken[] {
  const [langs, analyzers, options = {}] =
    typeof rest[0] === 'string' || Array.isArray(rest[0])
      ? (rest as [string | string[], Analyzers, AnalyzeQueryOptions?])
      : [
          rest[0].languages,
          rest[0],
          rest[1] as AnalyzeQueryOptions | undefined,
        ];
  const mode = options.restoreDiacritics ?? 'auto';
  const tokens = [...new Set(tokenize(text))];
  const questionHasDiacritics = tokens.some(hasDiacritics);
  const languages = [...new Set(Array.isArray(langs) ? langs : [langs])];
  const perToken: QueryTokenKeys[][] = tokens.map(() => []);
  // The language the question is clearly typed in, if any: its words are not read as another
  // language's words typed without diacritics ("the date format" is no Czech "dáte formát"),
  // and only its function words are dropped ("why does the pod restart": "pod" is no Czech
  // preposition there).
  const typedIn = questionLanguage(tokens, languages, analyzers);
  // Function words of any analysed language are never restored ("can" is not Czech "čáň").
  const anyStopword = new Set(
    tokens.filter(token =>
      languages.some(lang => analyzers.get(lang).isStopword(token)),
    ),
  );
  // Parts of identifiers (pg_stat_io, feature_flags.case) are names, never restored, unless
  // the word also stands alone.
  const standalone = new Set(tokenize(text.replace(IDENTIFIER, ' ')));
  const identifierParts = new Set(
    (text.match(IDENTIFIER) ?? [])
      .flatMap(id => tokenize(id))
      .filter(token => !standalone.has(token)),
  );
  const budget: RestoreBudget = {
    lookups: options.maxRestoreLookups ?? DEFAULT_MAX_RESTORE_LOOKUPS,
  };

  for (const lang of languages) {
    const analyzer = analyzers.get(lang);
    const entries = tokens.map(token => {
      const keys = analyzer.keysForWord(token);
      return {
        token,
        entry: {
          lang: analyzer.lang,
          lemmas: [...keys.lemmas],
          stems: [keys.stem],
          known: keys.known,
          stopword: analyzer.isStopword(token),
          restored: [] as string[],
        } satisfies QueryTokenKeys,
      };
    });
    const restore = analyzer.restoreDiacritics?.bind(analyzer);
    const otherLanguage =
      typedIn !== undefined && normalizeLanguage(typedIn) !== analyzer.lang;
    if (restore && mode !== 'never' && (mode === 'always' || !otherLanguage)) {
      // Shortest first: short words cost few lookups, so long foreign words cannot spend the
      // question's budget before them (a stable sort keeps question order among equals).
      const candidates = entries
        .filter(
          ({ token }) =>
            !anyStopword.has(token) &&
            !identifierParts.has(token) &&
            hasLetter(token) &&
            !hasDiacritics(token),
        )
        .sort((a, b) => a.token.length - b.token.length);
      const tried = new Set<QueryTokenKeys>();
      const maxRestored = options.maxRestoredWords ?? 16;
      const apply = (entry: QueryTokenKeys, token: string) => {
        if (tried.size >= maxRestored) return;
        tried.add(entry);
        const spellings = restore(token, budget);
        if (spellings.length === 0) return;
        // An unknown word's only lemma was itself; the restored words' lemmas replace it.
        if (!entry.known) entry.lemmas = [];
        for (const spelling of spellings) {
          const keys = analyzer.keysForWord(spelling);
          entry.restored.push(spelling);
          entry.lemmas.push(...keys.lemmas);
          entry.stems.push(keys.stem);
          entry.known ||= keys.known;
        }
      };
      for (const { token, entry } of candidates) {
        if (mode === 'always' || !entry.known) apply(entry, token);
      }
      // A question with no diacritics at all where some word needed restoring was typed
      // without them: its dictionary words may be misspellings too ("byt" for "být").
      const typedWithoutDiacritics =
        !questionHasDiacritics &&
        candidates.some(({ entry }) => entry.restored.length > 0);
      if (typedWithoutDiacritics) {
        for (const { token, entry } of candidates)
          if (!tried.has(entry)) apply(entry, token);
      }
    }
    entries.forEach(({ entry }, i) => {
      entry.lemmas = [...new Set(entry.lemmas)];
      entry.stems = [...new Set(entry.stems)];
      perToken[i].push(entry);
    });
  }

  const all = tokens.map((token, i): QueryToken => {
    const byLang = perToken[i];
    return {
      token,
      lemmas: [...new Set(byLang.flatMap(k => k.lemmas))],
      stems: [...new Set(byLang.flatMap(k => k.stems))],
      words: [...new Set([token, ...byLang.flatMap(k => k.restored)])],
      // In the question's clear language, its function words ("restart the pod": English
      // "pod" is no Czech preposition); when unclear, those of any language.
      stopword: typedIn
        ? byLang.some(k => k.stopword && k.lang === normalizeLanguage(typedIn))
        : byLang.some(k => k.stopword),
      // Likewise a dictionary word of the question's clear language: "parametr" in an English
      // question is a misspelling there, whatever Czech hunspell says.
      dictionaryWord: typedIn
        ? byLang.some(k => k.known && k.lang === normalizeLanguage(typedIn))
        : byLang.some(k => k.known),
      byLang,
    };
  });
  if (options.includeStopwords) return all;
  const content = all.filter(t => !t.stopword);
  return content.length > 0 ? content : all;
}

/**
 * The language a question is clearly typed in: at least two of its words say so (function words
 * only that language has, or letters only it writes), three times as many as say any other.
 * Function words of several languages ("a", "do", "to") say nothing; Czech ones count also
 * typed without diacritics ("neni", "pred"), as the analyzer knows them. Undefined otherwise.
 */
function questionLanguage(
  tokens: readonly string[],
  languages: readonly string[],
  analyzers: Analyzers,
): string | undefined {
  if (languages.length < 2) return undefined;
  const letters = new Map(
    analyzers.profiles.map(p => [
      normalizeLanguage(p.lang),
      p.distinctiveLetters &&
        new RegExp(
          p.distinctiveLetters.source,
          p.distinctiveLetters.flags.replace(/[gy]/g, ''),
        ),
    ]),
  );
  const evidence = languages
    .map(lang => {
      const analyzer = analyzers.get(lang);
      const own = letters.get(normalizeLanguage(lang));
      const others = languages
        .filter(o => o !== lang)
        .map(o => analyzers.get(o));
      const count = tokens.filter(
        t =>
          own?.test(t) ||
          (analyzer.isStopword(t) && !others.some(o => o.isStopword(t))),
      ).length;
      return { lang, count };
    })
    .sort((a, b) => b.count - a.count);
  const [first, second] = evidence;
  return first.count >= 2 && first.count >= 3 * second.count
    ? first.lang
    : undefined;
}
