import {
  normalizeTitle,
  parseCitationMarkers,
} from '@askdocs/plugin-ask-docs-common';
import type { AnswerSource } from '@askdocs/plugin-ask-docs-common';

/** A piece of answer text: prose, or one bracket of citations. */
export type AnswerSegment =
  | { kind: 'text'; text: string }
  | { kind: 'citations'; raw: string; items: CitationItem[] };

export interface CitationItem {
  label: string;
  /** The cited source, when the marker names one; unmatched markers stay plain text. */
  source?: AnswerSource;
  /** Where the marker points: its own section of the source (or the page). */
  url?: string;
}

type Target = { source: AnswerSource; url: string };

/**
 * Splits answer text into prose and citation brackets and links each marker as the backend
 * resolved it (`source.citations`): a second section of one document gets its own anchor, and
 * titles are matched in one place only. Answers stored before the backend said so link by the
 * source's normalised title, the whole label first so that a title which itself contains the
 * section separator still matches.
 */
export function linkCitations(
  text: string,
  sources: AnswerSource[],
): AnswerSegment[] {
  const resolvedByBackend = sources.some(s => s.citations);
  const byLabel = new Map<string, Target>();
  const byTitle = new Map<string, Target>();
  for (const source of sources) {
    for (const citation of source.citations ?? []) {
      const key = normalizeTitle(citation.label);
      if (!byLabel.has(key)) byLabel.set(key, { source, url: citation.url });
    }
    const key = normalizeTitle(source.title);
    if (!byTitle.has(key)) byTitle.set(key, { source, url: source.url });
  }
  const target = (marker: { label: string; title: string }) =>
    resolvedByBackend
      ? byLabel.get(normalizeTitle(marker.label))
      : byTitle.get(normalizeTitle(marker.label)) ??
        byTitle.get(normalizeTitle(marker.title));

  const segments: AnswerSegment[] = [];
  let offset = 0;
  const markers = parseCitationMarkers(text);
  for (let i = 0; i < markers.length; ) {
    const start = markers[i].start;
    const group = [];
    // Markers from one bracket share their start offset.
    while (i < markers.length && markers[i].start === start) {
      group.push(markers[i]);
      i++;
    }
    if (start > offset) {
      segments.push({ kind: 'text', text: text.slice(offset, start) });
    }
    segments.push({
      kind: 'citations',
      raw: group[0].raw,
      items: group.map(marker => ({ label: marker.label, ...target(marker) })),
    });
    offset = group[0].end;
  }
  if (offset < text.length) {
    segments.push({ kind: 'text', text: text.slice(offset) });
  }
  return segments;
}
