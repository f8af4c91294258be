/**
 * Readable excerpts of chunk text and the crude lexical overlap used to pick and check them.
 * Deterministic and language-agnostic: no stemmer, just word prefixes.
 */
import type {
  AnswerSource,
  ChunkPassage,
} from '@askdocs/plugin-ask-docs-common';

export const SNIPPET_CHARS = 240;

/**
 * Splits into sentences: at line breaks (list items, headings, paragraphs) and after . ! ? …
 * when the next word starts like a sentence (capital, digit, quote, bracket), so "v1.2" holds.
 */
export function splitSentences(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap(line => line.split(/(?<=[.!?…])\s+(?=[\p{Lu}\p{N}"'“„«(\[])/u))
    .map(s => s.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

/**
 * About `maxChars` of whole sentences from `text`. Starts at the sentence sharing most words
 * with `focus` (e.g. the claim that cites it), else at the beginning. A first sentence longer
 * than the limit is cut at a word boundary with an ellipsis.
 */
export function makeSnippet(
  text: string,
  focus?: string,
  maxChars = SNIPPET_CHARS,
): string {
  const sentences = splitSentences(text);
  if (!sentences.length) return '';
  let start = 0;
  if (focus) {
    const wanted = contentTerms(focus);
    let best = 0;
    sentences.forEach((s, i) => {
      const score = overlap(wanted, contentTerms(s)).shared;
      if (score > best) {
        best = score;
        start = i;
      }
    });
  }
  let snippet = '';
  for (const sentence of sentences.slice(start)) {
    const next = snippet ? `${snippet} ${sentence}` : sentence;
    if (next.length > maxChars) {
      if (!snippet) snippet = cut(sentence, maxChars);
      break;
    }
    snippet = next;
  }
  return snippet;
}

/**
 * A passage as the asker is shown it (a source, evidence, a search hit): what locates and cites
 * it, and a snippet of its text around `focus`.
 */
export function citedPassage(
  chunk: ChunkPassage,
  focus: string,
  maxChars = SNIPPET_CHARS,
): AnswerSource {
  return {
    chunkId: chunk.chunkId,
    documentId: chunk.documentId,
    entityRef: chunk.entityRef,
    title: chunk.title,
    sectionPath: chunk.sectionPath,
    anchor: chunk.anchor,
    url: chunk.url,
    revision: chunk.revision,
    snippet: makeSnippet(chunk.text, focus, maxChars),
  };
}

function cut(sentence: string, maxChars: number): string {
  const room = sentence.slice(0, maxChars - 1);
  const lastSpace = room.lastIndexOf(' ');
  return `${(lastSpace > maxChars / 2
    ? room.slice(0, lastSpace)
    : room
  ).replace(/[\s,;:]+$/, '')}…`;
}

// Function words that would make unrelated sentences look alike (English and Czech corpora).
const STOPWORDS = new Set(
  (
    'the and for are but not you your with this that these those from have has had was were ' +
    'will can could should would into onto than then there their they them what when where ' +
    'which who why how all any each other some such only own same very just also about above ' +
    'below after before again more most does did done doing use used using via its our out ' +
    'over under been being both here a an of to in on at by or is it be as if so no do we us ' +
    'he she jak jako aby ale ani jsou jsem jste bude byl byla bylo nebo pro při pod nad před ' +
    'přes mezi který která které kteří což tak také tento tato toto tyto jeho její ' +
    'jejich než jen již už kde kdy proč být mít má mají lze není nejsou'
  ).split(/\s+/),
);

/** Content words of a text, reduced to their first five letters (crude cross-language stemming). */
export function contentTerms(text: string): Set<string> {
  const terms = new Set<string>();
  for (const word of text
    .normalize('NFC')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (word.length < 3 || STOPWORDS.has(word)) continue;
    terms.add(word.slice(0, 5));
  }
  return terms;
}

/** How much of `claim` is found in `evidence`: shared terms and their share of the claim. */
export function overlap(
  claim: Set<string>,
  evidence: Set<string>,
): { shared: number; ratio: number } {
  let shared = 0;
  for (const term of claim) if (evidence.has(term)) shared++;
  return { shared, ratio: claim.size ? shared / claim.size : 0 };
}
