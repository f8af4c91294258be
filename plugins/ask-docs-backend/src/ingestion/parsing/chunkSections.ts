import { chunkContentHash, chunkIdFor } from './identity';
import { Span, splitSentences } from './sentences';
import { Chunk, ChunkOptions, ParsedPage, Section } from './types';

export const DEFAULT_MAX_CHUNK_CHARS = 1200;

/** Separator between the parts of a chunk's section path. */
export const SECTION_PATH_SEPARATOR = ' › ';

/**
 * Cuts a page into chunks of whole sentences that stay within one section. Only a sentence longer
 * than `maxChars` is cut inside, at a clause or word boundary. A section holding nothing but its
 * heading yields no chunk.
 */
export function chunkSections(
  page: ParsedPage,
  options: ChunkOptions,
): Chunk[] {
  const maxChars = Math.max(
    20,
    Math.floor(options.maxChars ?? DEFAULT_MAX_CHUNK_CHARS),
  );
  const overlap = Math.max(0, Math.floor(options.overlapSentences ?? 0));
  const minChars = Math.min(
    options.minChars ?? Math.min(200, Math.floor(maxChars / 4)),
    maxChars,
  );

  const chunks: Chunk[] = [];
  for (const section of page.sections) {
    if (section.text.trim() === section.heading.trim()) continue;
    const groups = packSection(section.text, maxChars, overlap);
    if (overlap === 0) rebalanceTail(groups, minChars, maxChars);
    const sectionPath = sectionPathOf(page.title, section);
    const sectionTitle =
      section.headingPath[section.headingPath.length - 1] ?? page.title;
    groups.forEach((group, indexInSection) => {
      const start = group[0].start;
      const end = group[group.length - 1].end;
      const text = section.text.slice(start, end);
      chunks.push({
        chunkId: chunkIdFor(options.documentId, section.key, indexInSection),
        ordinal: chunks.length,
        indexInSection,
        anchor: section.anchor,
        sectionPath,
        sectionTitle,
        charStart: section.charStart + start,
        charEnd: section.charStart + end,
        text,
        contentHash: chunkContentHash(sectionPath, text),
      });
    });
  }
  return chunks;
}

/** 'Title › Section › Subsection' (the title once, even when the first heading repeats it). */
export function sectionPathOf(
  title: string,
  section: Pick<Section, 'headingPath'>,
): string {
  const parts = [...section.headingPath];
  if (title && parts[0] !== title) parts.unshift(title);
  return parts.filter(Boolean).join(SECTION_PATH_SEPARATOR);
}

/**
 * Groups of consecutive sentence spans, each group at most `maxChars` long from first start to last
 * end.
 */
function packSection(
  text: string,
  maxChars: number,
  overlap: number,
): Span[][] {
  const groups: Span[][] = [];
  let current: Span[] = [];
  const emit = () => {
    if (current.length > 0) groups.push(current);
    current = [];
  };

  for (const sentence of splitSentences(text)) {
    if (current.length > 0 && sentence.end - current[0].start <= maxChars) {
      current.push(sentence);
      continue;
    }
    if (sentence.end - sentence.start <= maxChars) {
      const previous = current;
      emit();
      current = overlapTail(previous, sentence, overlap, maxChars);
      current.push(sentence);
      continue;
    }
    // A sentence longer than a chunk: fill what room the current chunk has left (a heading, say),
    // then cut the rest into chunk-sized pieces.
    let from = sentence.start;
    if (current.length > 0) {
      const room = maxChars - (from - current[0].start);
      if (room >= maxChars / 4) {
        const cut = cutLongSentence(text, from, sentence.end, room);
        current.push({ start: from, end: cut.end });
        from = cut.next;
      }
      emit();
    }
    while (sentence.end - from > maxChars) {
      const cut = cutLongSentence(text, from, sentence.end, maxChars);
      groups.push([{ start: from, end: cut.end }]);
      from = cut.next;
    }
    if (from < sentence.end) current = [{ start: from, end: sentence.end }];
  }
  emit();
  return groups;
}

/** The last `overlap` sentences of the previous chunk, if repeating them leaves room for `next`. */
function overlapTail(
  previous: Span[],
  next: Span,
  overlap: number,
  maxChars: number,
): Span[] {
  if (overlap === 0 || previous.length <= overlap) return [];
  const tail = previous.slice(previous.length - overlap);
  return next.end - tail[0].start <= maxChars ? tail : [];
}

/** A section's short last chunk takes sentences over from the one before it. */
function rebalanceTail(
  groups: Span[][],
  minChars: number,
  maxChars: number,
): void {
  if (groups.length < 2) return;
  const last = groups[groups.length - 1];
  const previous = groups[groups.length - 2];
  const span = (g: Span[]) => g[g.length - 1].end - g[0].start;
  while (span(last) < minChars && previous.length > 1) {
    const moved = previous[previous.length - 1];
    if (last[last.length - 1].end - moved.start > maxChars) break;
    if (previous[previous.length - 2].end - previous[0].start < minChars) break;
    last.unshift(previous.pop()!);
  }
}

/**
 * Where to cut a sentence that is longer than `room`: after the last clause mark (";", ",", ":",
 * " | ", a dash) in the second half of the window, else at the last space, else hard at `room`.
 */
function cutLongSentence(
  text: string,
  from: number,
  to: number,
  room: number,
): { end: number; next: number } {
  const limit = Math.min(to, from + room);
  const window = text.slice(from, limit + 1);
  let end = -1;
  const clause = /[;,:](?=\s)|\s[|–—](?=\s)/g;
  for (let m = clause.exec(window); m; m = clause.exec(window)) {
    const at = m[0].length === 1 ? m.index + 1 : m.index;
    if (at <= room && at >= room / 2) end = at;
  }
  if (end < 0) {
    for (let k = Math.min(room, window.length - 1); k > room / 4; k--) {
      if (/\s/.test(window[k])) {
        end = k;
        break;
      }
    }
  }
  if (end < 0) {
    end = room;
    const code = text.charCodeAt(from + end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
  }
  let cutEnd = from + end;
  while (cutEnd > from + 1 && /\s/.test(text[cutEnd - 1])) cutEnd--;
  let next = from + end;
  while (next < to && /\s/.test(text[next])) next++;
  return { end: cutEnd, next };
}
