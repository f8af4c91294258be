/*
 * Judges one product answer against an evaluation item, counting the citation error types
 * separately from retrieval: a good answer that cites the wrong source, and a cited source that
 * does not contain the claim citing it. The judge is lexical and deliberately independent of the
 * product's own claim check (which uses 5-letter prefixes): it compares lemma keys from the
 * language analyzers, so inflected Czech forms count as the same word.
 */
import type {
  AnswerResult,
  RetrievedChunk,
} from '../../plugins/ask-docs-backend/src/answer';
import { matchCitations } from '../../plugins/ask-docs-backend/src/answer/citations';
import {
  Analyzers,
  detectLanguage,
  foldDiacritics,
  tokenize,
} from '../../plugins/ask-docs-backend/src/language';

/** Share of the item's evidence keys an answer must contain to count as carrying the answer. */
export const EVIDENCE_RECALL = 0.5;
/** Share of a claim's keys its cited document must contain for the citation to be supported. */
export const CLAIM_SUPPORT = 0.6;
/** Claims with fewer content keys are too short to judge ("See [Install]."). */
export const MIN_JUDGEABLE_KEYS = 3;

/**
 * Content keys of a text: for each non-stopword token, its first lemma in the first configured
 * language that knows the word (else the folded token), so "psa" and "pes" are one key.
 */
export function contentKeys(text: string, analyzers: Analyzers): Set<string> {
  // The text's own language first: in "Viděli jsme psa" the word is the Czech dog, not the
  // English abbreviation WordNet also knows.
  const first = detectLanguage(text, analyzers.languages, analyzers.profiles);
  const langs = [first, ...analyzers.languages.filter(l => l !== first)].map(
    l => analyzers.get(l),
  );
  const keys = new Set<string>();
  for (const token of tokenize(text)) {
    if (token.length < 2 || langs.some(a => a.isStopword(token))) continue;
    const known = langs
      .map(a => a.keysForWord(token))
      .find(k => k.known && k.lemmas.length > 0);
    keys.add(foldDiacritics(known ? known.lemmas[0] : token));
  }
  return keys;
}

function share(part: Set<string>, whole: Set<string>): number {
  if (part.size === 0) return 0;
  let n = 0;
  for (const k of part) if (whole.has(k)) n++;
  return n / part.size;
}

export type AnswerOutcome =
  /**
   * Answerable: answered, the answer carries the evidence, a gold page is a source, no unsupported
   * citation.
   */
  | 'correct'
  /** Answerable: the answer carries the evidence but no shown source is a gold page. */
  | 'good_answer_wrong_source'
  /** Answerable: a gold page is a source but the answer does not carry the evidence. */
  | 'right_source_incomplete_answer'
  /** Answerable: neither the evidence nor a gold source. */
  | 'wrong_answer'
  /** Answerable: cites gold and carries the evidence, but some citation is unsupported. */
  | 'correct_with_unsupported_citation'
  /** Answerable: not-in-knowledge-base reply. */
  | 'false_refusal'
  /** Answerable or not: evidence only (the model cited nothing usable or failed). */
  | 'evidence_only'
  /** Unanswerable: not-in-knowledge-base or evidence only. */
  | 'correct_refusal'
  /** Unanswerable: a grounded answer was shown. */
  | 'answered_unanswerable';

export interface CitationJudgement {
  /** The page of the cited document ('entityRef|pagePath'). */
  page: string;
  claim: string;
  /** Share of the claim's keys found in the cited document's sent text; null when too short. */
  support: number | null;
  supported: boolean | null;
}

export interface AnswerJudgement {
  status: AnswerResult['status'];
  outcome: AnswerOutcome;
  /** Share of the evidence keys in the shown answer (answered only). */
  evidenceRecall: number | null;
  citesGold: boolean;
  /** Was any gold page among the chunks sent to the model? */
  goldSent: boolean;
  citations: CitationJudgement[];
  unsupportedCitations: number;
  sources: string[];
}

export interface JudgeInput {
  answerable: boolean;
  /** Verbatim answer text from a gold page (answerable items). */
  evidence?: string;
  gold: Set<string>;
  result: AnswerResult;
  /** The chunks retrieval handed to the answer step (the sent ones are among them). */
  chunks: RetrievedChunk[];
  pageOf: (chunkId: string) => string;
  analyzers: Analyzers;
}

export function judgeAnswer(input: JudgeInput): AnswerJudgement {
  const { result, analyzers, pageOf, gold } = input;
  const byId = new Map(input.chunks.map(c => [c.chunkId, c]));
  const sent = result.sent
    .map(id => byId.get(id))
    .filter((c): c is RetrievedChunk => !!c);
  const goldSent = sent.some(c => gold.has(pageOf(c.chunkId)));
  const sources = result.sources.map(s => pageOf(s.chunkId));
  const citesGold = sources.some(p => gold.has(p));

  const citations: CitationJudgement[] = [];
  if (result.status === 'answered') {
    // The shown answer's markers, matched exactly as the product matches them.
    const docText = new Map<string, Set<string>>();
    for (const m of matchCitations(result.answer, sent).matches) {
      if (!docText.has(m.documentId)) {
        const text = sent
          .filter(c => c.documentId === m.documentId)
          .map(c => `${c.sectionPath}\n${c.text}`)
          .join('\n');
        docText.set(m.documentId, contentKeys(text, analyzers));
      }
      const claim = contentKeys(m.claim, analyzers);
      const support =
        claim.size >= MIN_JUDGEABLE_KEYS
          ? share(claim, docText.get(m.documentId)!)
          : null;
      citations.push({
        page: pageOf(m.chunk.chunkId),
        claim: m.claim,
        support,
        supported: support === null ? null : support >= CLAIM_SUPPORT,
      });
    }
  }
  const unsupportedCitations = citations.filter(
    c => c.supported === false,
  ).length;
  const evidenceRecall =
    result.status === 'answered' && input.evidence
      ? share(
          contentKeys(input.evidence, analyzers),
          contentKeys(result.answer, analyzers),
        )
      : null;

  let outcome: AnswerOutcome;
  if (!input.answerable) {
    outcome =
      result.status === 'answered'
        ? 'answered_unanswerable'
        : 'correct_refusal';
  } else if (result.status === 'not_in_knowledge_base') {
    outcome = 'false_refusal';
  } else if (result.status === 'evidence_only') {
    outcome = 'evidence_only';
  } else {
    const carries = (evidenceRecall ?? 0) >= EVIDENCE_RECALL;
    if (carries && citesGold)
      outcome = unsupportedCitations
        ? 'correct_with_unsupported_citation'
        : 'correct';
    else if (carries) outcome = 'good_answer_wrong_source';
    else if (citesGold) outcome = 'right_source_incomplete_answer';
    else outcome = 'wrong_answer';
  }
  return {
    status: result.status,
    outcome,
    evidenceRecall,
    citesGold,
    goldSent,
    citations,
    unsupportedCitations,
    sources,
  };
}

export interface AnswerQualitySummary {
  answerable: number;
  unanswerable: number;
  outcomes: Record<AnswerOutcome, number>;
  /** Citation error type 1: answers carrying the evidence while citing no gold page. */
  goodAnswerWrongSource: number;
  /**
   * Citation error type 2: citations whose document does not contain the claim (and answers with
   * any).
   */
  unsupportedCitations: number;
  answersWithUnsupportedCitation: number;
  judgedCitations: number;
  /** Answered items whose gold page was sent but not cited. */
  goldSentNotCited: number;
}

export function summariseAnswers(
  judged: Array<{ answerable: boolean; judgement: AnswerJudgement }>,
): AnswerQualitySummary {
  const outcomes = Object.fromEntries(
    (
      [
        'correct',
        'correct_with_unsupported_citation',
        'good_answer_wrong_source',
        'right_source_incomplete_answer',
        'wrong_answer',
        'false_refusal',
        'evidence_only',
        'correct_refusal',
        'answered_unanswerable',
      ] as AnswerOutcome[]
    ).map(o => [o, 0]),
  ) as Record<AnswerOutcome, number>;
  let unsupported = 0;
  let withUnsupported = 0;
  let judgedCitations = 0;
  let goldSentNotCited = 0;
  for (const { judgement: j } of judged) {
    outcomes[j.outcome]++;
    unsupported += j.unsupportedCitations;
    if (j.unsupportedCitations > 0) withUnsupported++;
    judgedCitations += j.citations.filter(c => c.supported !== null).length;
    if (j.status === 'answered' && j.goldSent && !j.citesGold)
      goldSentNotCited++;
  }
  return {
    answerable: judged.filter(j => j.answerable).length,
    unanswerable: judged.filter(j => !j.answerable).length,
    outcomes,
    goodAnswerWrongSource: outcomes.good_answer_wrong_source,
    unsupportedCitations: unsupported,
    answersWithUnsupportedCitation: withUnsupported,
    judgedCitations,
    goldSentNotCited,
  };
}
