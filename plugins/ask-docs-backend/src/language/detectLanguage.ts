/**
 * Picks the language of a text among candidates by counting evidence per language: its
 * stopwords, and words with its characteristic letters (Czech ě, š, č, ř, ž, ů, ...). No
 * model: documentation pages are long and questions still carry function words, which is enough to
 * tell the configured languages apart.
 */
import { BUILT_IN_PROFILES } from './createLanguageAnalyzers';
import { normalizeLanguage } from './languageCode';
import { tokenize } from './tokenize';
import { LanguageProfile } from './types';

/** Pages are judged on their beginning; more text does not change the answer. */
const SAMPLE_CHARS = 20_000;

/** Per-language evidence counts, best first (exported for diagnostics and tests). */
export function languageScores(
  text: string,
  candidates: string[],
  profiles: readonly LanguageProfile[] = BUILT_IN_PROFILES,
): Array<{ lang: string; score: number }> {
  const tokens = tokenize(text.slice(0, SAMPLE_CHARS));
  const byLang = new Map(profiles.map(p => [normalizeLanguage(p.lang), p]));
  const scores = candidates.map((candidate, order) => {
    const profile = byLang.get(normalizeLanguage(candidate));
    let score = 0;
    if (profile) {
      // A global or sticky regex would carry lastIndex from one test() to the next.
      const letters = profile.distinctiveLetters
        ? new RegExp(
            profile.distinctiveLetters.source,
            profile.distinctiveLetters.flags.replace(/[gy]/g, ''),
          )
        : undefined;
      for (const token of tokens) {
        if (profile.stopwords.has(token)) score += 1;
        if (letters?.test(token)) score += 1;
      }
    }
    return { lang: candidate, score, order };
  });
  // Ties (including no evidence at all) go to the earlier candidate.
  scores.sort((a, b) => b.score - a.score || a.order - b.order);
  return scores.map(({ lang, score }) => ({ lang, score }));
}

/**
 * The most likely of `candidates` (e.g. the configured languages, default first) for the
 * text; the first candidate when nothing points anywhere.
 */
export function detectLanguage(
  text: string,
  candidates: string[],
  profiles: readonly LanguageProfile[] = BUILT_IN_PROFILES,
): string {
  if (candidates.length === 0)
    throw new Error('detectLanguage: no candidate languages');
  if (candidates.length === 1) return candidates[0];
  return languageScores(text, candidates, profiles)[0].lang;
}

/**
 * The candidate a short text (a question) is clearly written in: more evidence than any other
 * candidate; undefined on a tie, with no evidence, or with fewer than two candidates.
 */
export function clearLanguage(
  text: string,
  candidates: string[],
  profiles: readonly LanguageProfile[] = BUILT_IN_PROFILES,
): string | undefined {
  if (candidates.length < 2) return undefined;
  const [first, second] = languageScores(text, candidates, profiles);
  return first.score > second.score ? first.lang : undefined;
}
