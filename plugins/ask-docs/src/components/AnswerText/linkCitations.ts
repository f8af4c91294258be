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
}

/**
 * Splits answer text into prose and citation brackets, resolving each marker to the
 * source whose normalised title matches. The whole label is tried first so that a
 * title which itself contains the section separator still matches.
 */
export function linkCitations(
  text: string,
  sources: AnswerSource[],
): AnswerSegment[] {
  const byTitle = new Map<string, AnswerSource>();
  for (const source of sources) {
    const key = normalizeTitle(source.title);
    if (!byTitle.has(key)) byTitle.set(key, source);
  }

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
      items: group.map(marker => ({
        label: marker.label,
        source:
          byTitle.get(normalizeTitle(marker.label)) ??
          byTitle.get(normalizeTitle(marker.title)),
      })),
    });
    offset = group[0].end;
  }
  if (offset < text.length) {
    segments.push({ kind: 'text', text: text.slice(offset) });
  }
  return segments;
}
