/** Keyword-analysis types: what ingestion stores in the posting lists and what queries match. */
import type {
  BilingualDictionary,
  BilingualDictionaryFiles,
} from './bilingualDictionary';
import type { AskingWords } from './situation';
import type { SmallTalkWords } from './smallTalk';

/** The keys of one token. All keys are lowercase and folded (no diacritics). */
export interface WordKeys {
  /**
   * Lemma candidates: every dictionary reading of the word ("pes" → pes, peso). Never empty:
   * a word no dictionary knows is its own lemma, so exact words still match at lemma level.
   */
  lemmas: readonly string[];
  /** Light stem, the fallback key for forms the dictionary does not know. */
  stem: string;
  /**
   * True when the language's dictionary knows the word: Czech hunspell or the irregular-forms
   * table; English WordNet, for the word or one of its lemma readings.
   */
  known: boolean;
}

export interface LanguageAnalyzer {
  /** ISO 639-1 code, also the `lang` of the documents and terms it produced. */
  readonly lang: string;
  /**
   * Identifies how keys are computed (code version, dictionary hash, degraded mode). Keys
   * stored under one signature only match queries analysed under the same one: re-index
   * when it changes.
   */
  readonly signature: string;
  /** Why the analyzer runs with reduced quality (e.g. dictionary missing), else undefined. */
  readonly degraded?: string;
  /** Keys of a token as tokenize() returns it (lowercase). Cached; cheap to call repeatedly. */
  keysForWord(word: string): WordKeys;
  isStopword(word: string): boolean;
  /**
   * Spellings of a word typed without diacritics that the dictionary knows ("zalozky" →
   * ["záložky"]). Slow (up to thousands of dictionary lookups per word): query time only, and
   * within the question's `budget`, which it draws down. Optional.
   */
  restoreDiacritics?(word: string, budget?: RestoreBudget): readonly string[];
}

/** Dictionary lookups one question may still spend on restoring diacritics. */
export interface RestoreBudget {
  lookups: number;
}

/** Evidence a language leaves in text, for detectLanguage(). */
export interface LanguageProfile {
  lang: string;
  stopwords: ReadonlySet<string>;
  /** Letters characteristic of the language (Czech ě, ř, ů, ...); each token with one counts. */
  distinctiveLetters?: RegExp;
  /**
   * Conversational words, folded: a clause with a marker ("thanks", "anyone") and otherwise only
   * these and function words is left out of a question (smallTalk.ts).
   */
  smallTalk?: SmallTalkWords;
  /** How its sentences ask, to tell them from the asker's situation (situation.ts). */
  asking?: AskingWords;
}

export interface LanguageModuleContext {
  /** Per-language options, e.g. the hunspell paths, from createLanguageAnalyzers options. */
  hunspell?: { affPath: string; dicPath: string };
  onMissingDictionary: 'error' | 'stem-only';
  warn(message: string): void;
  cacheSize: number;
}

/** A pluggable language: its detection profile and how to build its analyzer. */
export interface LanguageModule {
  profile: LanguageProfile;
  createAnalyzer(context: LanguageModuleContext): Promise<LanguageAnalyzer>;
}

export interface LanguageAnalyzersOptions {
  /** Languages to analyse, e.g. ['en', 'cs']; the first is the default for undetectable text. */
  languages: string[];
  /**
   * Hunspell dictionary files per language. Czech defaults to /usr/share/hunspell/cs_CZ.{aff,dic}.
   */
  hunspell?: {
    [lang: string]: { affPath: string; dicPath: string } | undefined;
  };
  /**
   * A dictionary that cannot be loaded is an error by default. 'stem-only' runs the language
   * without lemmas (each word is its own lemma) and reports it through `warn` and `degraded`.
   */
  onMissingDictionary?: 'error' | 'stem-only';
  /** Receives degraded-mode warnings; defaults to console.warn so they are never silent. */
  logger?: { warn(message: string): void };
  /** Word → keys cache entries per language. Default 200 000. */
  cacheSize?: number;
  /**
   * A dictd bilingual dictionary between two of `languages` (e.g. FreeDict eng-ces): questions
   * then also match the other language's words for theirs. Read at start; an unreadable one is
   * an error.
   */
  bilingualDictionary?: BilingualDictionaryFiles;
  /** Additional or replacement language modules, keyed by their profile.lang. */
  modules?: LanguageModule[];
}

export interface Analyzers {
  /** Configured languages, default first. */
  readonly languages: string[];
  readonly defaultLanguage: string;
  /** Languages running degraded, with the reason. Empty when all is well. */
  readonly degraded: Record<string, string>;
  /** The analyzer of a configured language; throws for any other. */
  get(lang: string): LanguageAnalyzer;
  has(lang: string): boolean;
  /** Detection profiles of the configured languages. */
  readonly profiles: LanguageProfile[];
  /** Word translations between two configured languages (questions only); optional. */
  readonly dictionary?: BilingualDictionary;
}

export type TermKind = 'l' | 's' | 'w';

/** One key of a chunk with its tf: an entry of the key's posting list. */
export interface TermCount {
  /** 'l' lemma key, 's' stem key (both folded), 'w' lowercase surface word (typo vocabulary). */
  kind: TermKind;
  term: string;
  tf: number;
}

export interface AnalyzedText {
  terms: TermCount[];
  /** Number of word tokens, stopwords included: the chunk length for scoring (term_count). */
  tokenCount: number;
}

/** Keys of a query token in one language: match them against that language's terms only. */
export interface QueryTokenKeys {
  lang: string;
  lemmas: string[];
  stems: string[];
  known: boolean;
  stopword: boolean;
  /** Dictionary spellings with diacritics used in addition to the typed word. */
  restored: string[];
}

export interface QueryToken {
  /** Lowercase token as typed (also the 'w' key for typo correction). */
  token: string;
  /** Union over languages of lemma keys (folded). */
  lemmas: string[];
  /** Union over languages of stem keys (folded). */
  stems: string[];
  /** Surface words, unfolded ('w' keys): the token and its restored spellings. */
  words: string[];
  /**
   * A function word of the language the question is clearly typed in, or of any analysed
   * language when none is clear: retrieval should ignore it.
   */
  stopword: boolean;
  /** Some analysed language's dictionary knows the word (as typed or restored). */
  dictionaryWord: boolean;
  /** Per-language keys, as the language analysed them. */
  byLang: QueryTokenKeys[];
}
