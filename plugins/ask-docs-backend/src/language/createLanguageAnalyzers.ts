/**
 * Builds the analyzers of the configured languages. Languages are modules (detection profile
 * + analyzer factory): English and Czech are built in, others can be passed in `modules`.
 */
import { czechLanguage } from './czechAnalyzer';
import { englishLanguage } from './englishAnalyzer';
import { readBilingualDictionary } from './bilingualDictionary';
import { normalizeLanguage } from './languageCode';
import { foldDiacritics, hasDiacritics } from './tokenize';
import { foldedAsking } from './situation';
import {
  Analyzers,
  LanguageAnalyzer,
  LanguageAnalyzersOptions,
  LanguageModule,
  LanguageProfile,
} from './types';

export const BUILT_IN_LANGUAGES: readonly LanguageModule[] = [
  englishLanguage,
  czechLanguage,
];

/** Detection profiles of the built-in languages. */
export const BUILT_IN_PROFILES: readonly LanguageProfile[] =
  BUILT_IN_LANGUAGES.map(m => m.profile);

export async function createLanguageAnalyzers(
  options: LanguageAnalyzersOptions,
): Promise<Analyzers> {
  const languages = [
    ...new Set((options.languages ?? []).map(normalizeLanguage)),
  ].filter(Boolean);
  if (languages.length === 0) {
    throw new Error('createLanguageAnalyzers: configure at least one language');
  }
  const modules = new Map<string, LanguageModule>();
  for (const module of [...BUILT_IN_LANGUAGES, ...(options.modules ?? [])]) {
    modules.set(normalizeLanguage(module.profile.lang), module);
  }
  const logger = options.logger;
  const warn = (message: string) =>
    logger ? logger.warn(message) : console.warn(message);

  const byLang = new Map<string, LanguageAnalyzer>();
  for (const lang of languages) {
    const module = modules.get(lang);
    if (!module) {
      throw new Error(
        `No keyword analyzer for language '${lang}'; available: ${[
          ...modules.keys(),
        ].join(', ')} ` +
          `(a generic one can be added with genericLanguage('${lang}'))`,
      );
    }
    byLang.set(
      lang,
      await module.createAnalyzer({
        hunspell: options.hunspell?.[lang],
        onMissingDictionary: options.onMissingDictionary ?? 'error',
        warn,
        cacheSize: options.cacheSize ?? 200_000,
      }),
    );
  }

  const degraded: Record<string, string> = {};
  for (const [lang, analyzer] of byLang) {
    if (analyzer.degraded) degraded[lang] = analyzer.degraded;
  }

  const files = options.bilingualDictionary;
  if (
    files &&
    ![files.from, files.to].every(l => byLang.has(normalizeLanguage(l)))
  ) {
    throw new Error(
      `bilingual dictionary ${files.path}: ${files.from} and ${files.to} must both be ` +
        `configured languages (configured: ${languages.join(', ')})`,
    );
  }
  const dictionary = files ? readBilingualDictionary(files) : undefined;

  return {
    languages,
    defaultLanguage: languages[0],
    dictionary,
    degraded,
    profiles: languages.map(lang => modules.get(lang)!.profile),
    has: lang => byLang.has(normalizeLanguage(lang)),
    get(lang: string): LanguageAnalyzer {
      const analyzer = byLang.get(normalizeLanguage(lang));
      if (!analyzer) {
        throw new Error(
          `Language '${lang}' is not configured for keyword analysis (configured: ${languages.join(
            ', ',
          )})`,
        );
      }
      return analyzer;
    },
  };
}

/**
 * A language without dictionary or stemmer: keys are the folded words themselves. Enough to
 * index a language exactly (e.g. German docs) until a real module exists.
 */
export function genericLanguage(
  lang: string,
  profile: Partial<Omit<LanguageProfile, 'lang'>> = {},
): LanguageModule {
  const stopwords = profile.stopwords ?? new Set<string>();
  const folded = new Set([...stopwords].map(foldDiacritics));
  return {
    profile: {
      lang,
      stopwords,
      distinctiveLetters: profile.distinctiveLetters,
      // Folded, as smallTalk.ts compares.
      smallTalk: profile.smallTalk && {
        markers: new Set([...profile.smallTalk.markers].map(foldDiacritics)),
        companions: new Set(
          [...profile.smallTalk.companions].map(foldDiacritics),
        ),
        ...(profile.smallTalk.reasons && {
          reasons: new Set([...profile.smallTalk.reasons].map(foldDiacritics)),
        }),
        ...(profile.smallTalk.signOff && {
          signOff: new Set([...profile.smallTalk.signOff].map(foldDiacritics)),
        }),
        ...(profile.smallTalk.beforeNoun && {
          beforeNoun: new Set(
            [...profile.smallTalk.beforeNoun].map(foldDiacritics),
          ),
        }),
      },
      asking: profile.asking && foldedAsking(profile.asking),
    },
    async createAnalyzer() {
      return {
        lang,
        signature: `${lang}:1:generic`,
        keysForWord(word: string) {
          const key = foldDiacritics(word);
          return { lemmas: [key], stem: key, known: false };
        },
        isStopword: (word: string) =>
          stopwords.has(word) || (!hasDiacritics(word) && folded.has(word)),
      };
    },
  };
}
