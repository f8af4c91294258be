import {
  AnswerSource,
  CitationMarker,
  normalizeTitle,
  parseCitationMarkers,
  SourceCitation,
  splitSectionPath,
} from '@askdocs/plugin-ask-docs-common';
import { chunkSections, citationLabels, cleanLabel } from './labels';
import { citedPassage, contentTerms } from './snippet';
import type { RetrievedChunk } from './types';

/**
 * Turning the model's [Title] markers into sources.
 *
 * A document becomes a source only if it was sent to the model AND a marker names it by its
 * citation label (normalised, see normalizeTitle). So a title the model invents, or copies
 * from a document's text, names nothing that was sent and is reported as unmatched; a title
 * in prose is no marker at all; and "[FAQ]" can only ever equal the label "FAQ", never part
 * of "FAQ for contractors" or "FAQs".
 *
 * Sections: `[Title › Section]` picks the sent chunk of that document whose section matches
 * (exact, else the cited path is a tail of the chunk's path, else the chunk lies under the
 * cited section). A section that matches no sent chunk still cites the document — the title
 * is what the model was told to cite — and the document's best-ranked sent chunk represents it.
 *
 * Duplicate titles: labels are unique (see labels.ts). A marker with the bare shared title,
 * e.g. [Overview] when "Overview (payments)" and "Overview (billing)" were sent, resolves only
 * if its section matches chunks of exactly one of them; otherwise it is ambiguous, unmatched.
 */

export interface CitationMatch {
  marker: CitationMarker;
  documentId: string;
  /** The chunk the marker points at: section match, else the document's best-ranked chunk. */
  chunk: RetrievedChunk;
  sectionMatched: boolean;
  /** The section path the marker names after the title; empty for a bare [Title]. */
  section: string[];
  /** The answer text the marker supports (its sentence, without markers). */
  claim: string;
}

export interface UnmatchedCitation {
  raw: string;
  label: string;
  reason: 'unknown_title' | 'ambiguous_title';
  /** For ambiguous titles: the labels it could have meant. */
  candidates?: string[];
}

export interface CitationSelection {
  /** One per cited document, in order of first citation. */
  sources: AnswerSource[];
  matches: CitationMatch[];
  unmatched: UnmatchedCitation[];
}

const KEY_JOIN = '\u0000';
const keyOf = (parts: string[]) => parts.map(normalizeTitle).join(KEY_JOIN);

export function matchCitations(
  answerText: string,
  sentChunks: RetrievedChunk[],
): CitationSelection {
  const labels = citationLabels(sentChunks);
  const chunksByDoc = new Map<string, RetrievedChunk[]>();
  for (const chunk of [...sentChunks].sort((a, b) => a.rank - b.rank)) {
    chunksByDoc.set(chunk.documentId, [
      ...(chunksByDoc.get(chunk.documentId) ?? []),
      chunk,
    ]);
  }
  const byLabel = new Map<string, string>();
  const byTitle = new Map<string, string[]>();
  for (const [documentId, label] of labels) {
    byLabel.set(keyOf(splitSectionPath(label)), documentId);
    // As labels.ts spells the title, so that shared titles compare alike.
    const title = cleanLabel(chunksByDoc.get(documentId)![0].title);
    const key = keyOf(splitSectionPath(title));
    byTitle.set(key, [...(byTitle.get(key) ?? []), documentId]);
  }

  const matches: CitationMatch[] = [];
  const unmatched: UnmatchedCitation[] = [];
  for (const marker of parseCitationMarkers(answerText)) {
    const parts = splitSectionPath(marker.label);
    const resolved = resolve(parts, byLabel, byTitle, chunksByDoc);
    if ('reason' in resolved) {
      unmatched.push({
        raw: marker.raw,
        label: marker.label,
        reason: resolved.reason,
        ...(resolved.candidates
          ? { candidates: resolved.candidates.map(id => labels.get(id)!) }
          : {}),
      });
      continue;
    }
    const { chunk, score } = pickChunk(
      chunksByDoc.get(resolved.documentId)!,
      resolved.section,
    );
    matches.push({
      marker,
      documentId: resolved.documentId,
      chunk,
      sectionMatched: score > 0,
      section: resolved.section,
      claim: claimFor(answerText, marker),
    });
  }

  const sources: AnswerSource[] = [];
  const seen = new Set<string>();
  for (const { documentId } of matches) {
    if (seen.has(documentId)) continue;
    seen.add(documentId);
    const own = matches.filter(m => m.documentId === documentId);
    const sectioned = own.filter(m => m.sectionMatched).map(m => m.chunk);
    const chunk = (
      sectioned.length ? sectioned : chunksByDoc.get(documentId)!
    ).reduce((a, b) => (b.rank < a.rank ? b : a));
    sources.push({
      ...citedPassage(chunk, own.map(m => m.claim).join(' ')),
      title: labels.get(documentId)!,
      citations: citationsOf(own),
    });
  }
  return { sources, matches, unmatched };
}

/**
 * Where each distinct marker of one document points, so that a client links "[Guide › Canary]"
 * to the canary section although the source shows the rollback one, and never resolves a title
 * itself. A section that matched no sent chunk points at the page, not at another section.
 */
function citationsOf(own: CitationMatch[]): SourceCitation[] {
  const byLabel = new Map<string, SourceCitation>();
  for (const m of own) {
    if (byLabel.has(m.marker.label)) continue;
    // A bare [Title] points at its best-ranked passage, as the source does.
    const pointed = m.sectionMatched || !m.section.length;
    const url = pointed ? m.chunk.url : m.chunk.url.split('#')[0];
    byLabel.set(m.marker.label, { label: m.marker.label, url });
  }
  return [...byLabel.values()];
}

/** The sources an answer cites; see matchCitations for the rules. */
export function selectSources(
  answerText: string,
  sentChunks: RetrievedChunk[],
): AnswerSource[] {
  return matchCitations(answerText, sentChunks).sources;
}

type Resolution =
  | { documentId: string; section: string[] }
  | { reason: UnmatchedCitation['reason']; candidates?: string[] };

function resolve(
  parts: string[],
  byLabel: Map<string, string>,
  byTitle: Map<string, string[]>,
  chunksByDoc: Map<string, RetrievedChunk[]>,
): Resolution {
  // Longest title first, so a title that itself contains '›' still resolves.
  for (let k = parts.length; k >= 1; k--) {
    const documentId = byLabel.get(keyOf(parts.slice(0, k)));
    if (documentId) return { documentId, section: parts.slice(k) };
  }
  for (let k = parts.length; k >= 1; k--) {
    const candidates = byTitle.get(keyOf(parts.slice(0, k)));
    if (!candidates || candidates.length < 2) continue;
    const section = parts.slice(k);
    const fitting = section.length
      ? candidates.filter(
          id => pickChunk(chunksByDoc.get(id)!, section).score > 0,
        )
      : [];
    if (fitting.length === 1) return { documentId: fitting[0], section };
    return { reason: 'ambiguous_title', candidates };
  }
  return { reason: 'unknown_title' };
}

/** Best chunk of a document for a cited section; score 0 = no section match (best-ranked). */
function pickChunk(
  chunks: RetrievedChunk[],
  section: string[],
): { chunk: RetrievedChunk; score: number } {
  let best = { chunk: chunks[0], score: 0 };
  if (!section.length) return best;
  const cited = section.map(normalizeTitle);
  for (const chunk of chunks) {
    const own = chunkSections(chunk).map(normalizeTitle);
    const score = sectionScore(own, cited);
    // chunks are rank-ordered: ties keep the better rank
    if (score > best.score) best = { chunk, score };
  }
  return best;
}

function sectionScore(own: string[], cited: string[]): number {
  if (own.length < cited.length) return 0;
  const same = (offset: number) => cited.every((c, i) => own[offset + i] === c);
  if (own.length === cited.length && same(0)) return 3;
  if (same(own.length - cited.length)) return 2; // cited the tail of the path
  if (same(0)) return 1; // chunk lies under the cited section
  return 0;
}

/**
 * The sentence a marker supports: text from the previous sentence end up to the marker. A
 * marker placed after the full stop ("… rolled back. [Release]") supports the sentence before.
 */
function claimFor(text: string, marker: CitationMarker): string {
  const before = text.slice(0, marker.start);
  const ends = [
    0,
    ...[...before.matchAll(/[.!?…](?=\s)|\n/g)].map(m => (m.index ?? 0) + 1),
  ];
  const clean = (from: number) =>
    stripMarkers(before.slice(from)).replace(/\s+/g, ' ').trim();
  let claim = clean(ends[ends.length - 1]);
  if (contentTerms(claim).size < 3 && ends.length > 1)
    claim = clean(ends[ends.length - 2]);
  return claim;
}

/** The text without its citation markers (the citations of one bracket share its span). */
export function stripMarkers(text: string): string {
  let out = text;
  const spans = new Map(parseCitationMarkers(text).map(m => [m.start, m.end]));
  for (const [start, end] of [...spans].reverse())
    out = out.slice(0, start) + out.slice(end);
  return out;
}
