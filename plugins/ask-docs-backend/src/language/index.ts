/**
 * Keyword analysis for ingestion and queries: tokens, lemma / stem / surface keys per
 * language (English, Czech; pluggable), stopwords and language detection. See README.md.
 */
export {
  tokenize,
  foldDiacritics,
  hasDiacritics,
  MAX_TOKEN_LENGTH,
} from './tokenize';
export { analyzeText, analyzeQuery } from './analyzeText';
export type { AnalyzeTextOptions, AnalyzeQueryOptions } from './analyzeText';
export {
  createLanguageAnalyzers,
  genericLanguage,
  BUILT_IN_LANGUAGES,
  BUILT_IN_PROFILES,
} from './createLanguageAnalyzers';
export { normalizeLanguage } from './languageCode';
export {
  clearLanguage,
  detectLanguage,
  languageScores,
} from './detectLanguage';
export {
  readBilingualDictionary,
  translationKeys,
  MAX_TRANSLATIONS,
} from './bilingualDictionary';
export type {
  BilingualDictionary,
  BilingualDictionaryFiles,
} from './bilingualDictionary';
export { analysisSignature } from './analysisSignature';
export {
  createCzechAnalyzer,
  czechLanguage,
  DEFAULT_CZECH_DICTIONARY,
} from './czechAnalyzer';
export type { CzechAnalyzerOptions } from './czechAnalyzer';
export { createEnglishAnalyzer, englishLanguage } from './englishAnalyzer';
export { czechLightStem, MIN_STEM_LENGTH } from './czechLightStemmer';
export { ENGLISH_STOPWORDS, CZECH_STOPWORDS } from './stopwords';
export { withoutSmallTalk } from './smallTalk';
export { splitSituation } from './situation';
export type { AskingWords, SituationSplit } from './situation';
export type { SmallTalkWords } from './smallTalk';
export { loadHunspell, DictionaryUnavailableError } from './hunspell';
export type { HunspellDictionary, LoadedHunspell } from './hunspell';
export type {
  Analyzers,
  AnalyzedText,
  LanguageAnalyzer,
  LanguageAnalyzersOptions,
  LanguageModule,
  LanguageModuleContext,
  LanguageProfile,
  QueryToken,
  QueryTokenKeys,
  TermCount,
  TermKind,
  WordKeys,
} from './types';
