import { InputError } from '@backstage/errors';
import {
  Analyzers,
  analyzeQuery,
  clearLanguage,
  splitSituation,
  translationKeys,
  withoutSmallTalk,
} from '../language';
import { americanSpelling } from '../language/spellingVariants';
import { tokenize } from '../language/tokenize';
import { QueryToken } from '../retrieval';

/** A question as both retrievers see it. */
export interface PreparedQuestion {
  /** Keyword side: content tokens with their lemma and stem keys (stopwords out). */
  queryTokens: QueryToken[];
  /**
   * Vector side: the question with words typed without diacritics replaced by the spelling the
   * dictionary restored ("zalozky" → "záložky"), so both sides read the same words.
   */
  vectorText: string;
  /** Clauses left out as small talk ("Hi, quick question:", "Thanks!"); smallTalk.ts. */
  smallTalk: string[];
  /**
   * Sentences about the asker's situation ("We are migrating our services."); situation.ts.
   * Their words are searched for, marked `situation` unless the asking sentences have them too.
   */
  situation: string[];
}

/** Distinct content words a question may have: each one costs keyword and typo queries. */
export const DEFAULT_MAX_QUERY_TERMS = 64;

/** Throws InputError when the question has more than `maxQueryTerms` distinct content words. */
export function prepareQuestion(
  question: string,
  analyzers: Analyzers,
  options: { maxQueryTerms?: number } = {},
): PreparedQuestion {
  const maxQueryTerms = options.maxQueryTerms ?? DEFAULT_MAX_QUERY_TERMS;
  // Composed, as the documents' text: the evidence features read letters ("č" typed as "c" and
  // a combining caron must weigh as "č").
  // Without the greeting and the thank-you: both sides search for what is asked. The asker's
  // situation stays, read apart (situation.ts).
  const { text, dropped } = withoutSmallTalk(
    question.normalize('NFC'),
    analyzers.profiles,
  );
  const analyzed = analyzeQuery(text, analyzers);
  const { asked, situation } = splitSituation(text, analyzers.profiles);
  const askedWords = new Set(tokenize(asked));
  const situationWords = new Set(tokenize(situation.join(' ')));
  const distinct = new Set(
    analyzed.filter(t => !t.stopword).map(t => t.token.toLowerCase()),
  );
  if (distinct.size > maxQueryTerms) {
    throw new InputError(
      `The question has too many distinct search terms ` +
        `(${distinct.size}, at most ${maxQueryTerms})`,
    );
  }
  const restored = new Map<string, string>();
  for (const t of analyzed) {
    const spelling = t.byLang.flatMap(k => k.restored)[0];
    if (spelling) restored.set(t.token, spelling);
  }
  // The whole question, the asker's situation too: it may name the topic, and embedding only
  // what is asked answered more unanswerable near-misses (decision record 0009, seventeenth
  // round).
  const vectorText = rewriteWords(text, restored);
  // Words typed with a capital letter anywhere ("Gradle", "PostgREST", "E-Mail"): names, as far
  // as the typo step is concerned. Read as tokenize() reads them.
  const capitalised = new Set(
    text
      .split(/\s+/)
      .filter(w => /^[^\p{L}\p{N}]*\p{Lu}/u.test(w))
      .flatMap(w => tokenize(w)),
  );
  // The British spelling of an English word ("parallelise"): only its American spelling is a
  // sure correction (typo.ts). A slip that merely looks British ("versoin") is not one.
  const english = analyzers.languages.includes('en')
    ? analyzers.get('en')
    : undefined;
  const british = (word: string) => {
    const american = americanSpelling(word);
    return (
      !!english && american !== word && english.keysForWord(american).known
    );
  };
  // Read with restored diacritics: "smaze prikaz" says Czech only as "smaže příkaz".
  const lang = analyzers.dictionary
    ? clearLanguage(vectorText, analyzers.languages, analyzers.profiles)
    : undefined;
  // In the order they are asked in: phrase evidence reads neighbouring asked words in order,
  // and a word the situation has too comes first in the message ("… the layer templates. How
  // do I rotate a layer?"). Without a situation, as typed.
  const askedOrder = new Map(
    tokenize(asked)
      .map((w, i) => [w, i] as const)
      .reverse(),
  );
  const position = (t: { token: string }) =>
    askedOrder.get(t.token) ?? Number.POSITIVE_INFINITY;
  const inAskedOrder = situation.length
    ? [...analyzed].sort((a, b) =>
        position(a) === position(b) ? 0 : position(a) < position(b) ? -1 : 1,
      )
    : analyzed;
  return {
    queryTokens: inAskedOrder
      .filter(t => !t.stopword)
      // Only the typed word is a surface key: restored spellings already count through lemmas.
      // A word's translations (with a bilingual dictionary) are more keys of the same word, so
      // a question meets pages in the other language without counting any word twice.
      .map(t => ({
        token: t.token,
        lemmas: [
          ...new Set([...t.lemmas, ...translationKeys(t, analyzers, lang)]),
        ],
        stems: t.stems,
        words: [t.token],
        dictionaryWord: t.dictionaryWord,
        capitalised: capitalised.has(t.token),
        britishSpelling: british(t.token),
        ...(situationWords.has(t.token) && !askedWords.has(t.token)
          ? { situation: true }
          : {}),
      })),
    vectorText,
    smallTalk: dropped,
    situation,
  };
}

/** Replaces whole words (compared lowercase, NFC) by their replacement; the rest stays as typed. */
export function rewriteWords(
  text: string,
  replacements: ReadonlyMap<string, string>,
): string {
  if (replacements.size === 0) return text;
  return text
    .normalize('NFC')
    .replace(
      /[\p{L}\p{M}\p{N}]+/gu,
      word => replacements.get(word.toLowerCase()) ?? word,
    );
}
