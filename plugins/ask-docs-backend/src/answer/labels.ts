import {
  normalizeTitle,
  parseCitationMarkers,
  SECTION_SEPARATOR_PATTERN,
} from '@askdocs/plugin-ask-docs-common';
import type { RetrievedChunk } from './types';

/**
 * Citation labels: the title by which the model cites each sent document.
 *
 * Duplicate titles (decision record 0003): when two sent documents share a normalised title,
 * each is labelled `Title (entity name)`, then `Title (entity ref)` if the names collide too,
 * then `Title (entity ref) #n` — so every sent document has a unique label and a citation can
 * only ever resolve to one document. A bare citation of the shared title is ambiguous and is
 * not a source (see citations.ts). Labels depend only on the set of sent chunks, so the prompt
 * and source selection compute the same labels independently.
 */
export function citationLabels(chunks: RetrievedChunk[]): Map<string, string> {
  const docs = new Map<
    string,
    { title: string; entityRef: string; rank: number }
  >();
  for (const chunk of chunks) {
    const known = docs.get(chunk.documentId);
    if (!known || chunk.rank < known.rank) {
      docs.set(chunk.documentId, {
        title: cleanLabel(chunk.title) || chunk.documentId,
        entityRef: chunk.entityRef,
        rank: known ? Math.min(known.rank, chunk.rank) : chunk.rank,
      });
    }
  }
  const ordered = [...docs.entries()].sort(
    ([a, x], [b, y]) => x.rank - y.rank || (a < b ? -1 : a > b ? 1 : 0),
  );

  const byTitle = groupBy(ordered, ([, d]) => normalizeTitle(d.title));
  const labels = new Map<string, string>();
  for (const group of byTitle.values()) {
    if (group.length === 1) {
      labels.set(group[0][0], citable(group[0][1]));
      continue;
    }
    const byName = groupBy(group, ([, d]) => entityName(d.entityRef));
    for (const [id, d] of group) {
      const nameUnique = byName.get(entityName(d.entityRef))!.length === 1;
      labels.set(
        id,
        `${d.title} (${nameUnique ? entityName(d.entityRef) : d.entityRef})`,
      );
    }
  }

  // Whatever is still not unique (same entity, same title; or a label equal to another title)
  // gets a counter, in rank order; a document's own title first: the model may cite a title it
  // read in the document, which must name that document, not one whose label was made up.
  const seen = new Set<string>();
  const own = ([id, d]: (typeof ordered)[number]) => labels.get(id) === d.title;
  for (const [id] of [
    ...ordered.filter(own),
    ...ordered.filter(e => !own(e)),
  ]) {
    const base = labels.get(id)!;
    let label = base;
    for (let n = 2; seen.has(normalizeTitle(label)); n++)
      label = `${base} #${n}`;
    seen.add(normalizeTitle(label));
    labels.set(id, label);
  }
  return labels;
}

/**
 * The title, unless the citation parser would not read `[title]` as citing it ("1.4.0" and
 * other numbers, "x" a checkbox, "^1" a footnote): then the entity's name, or ref, is added.
 */
function citable(d: { title: string; entityRef: string }): string {
  const reads = (label: string) => {
    const markers = parseCitationMarkers(`[${label}]`);
    return markers.length === 1 && markers[0].label === label;
  };
  for (const label of [
    d.title,
    `${d.title} (${entityName(d.entityRef)})`,
    `${d.title} (${d.entityRef})`,
  ])
    if (reads(label)) return label;
  return `“${d.title}”`;
}

const SEPARATORS = new RegExp(SECTION_SEPARATOR_PATTERN.source, 'g');
/** A label is a line of the prompt and a marker the model copies: long ones are cut. */
const MAX_LABEL_CHARS = 200;

/**
 * A title or heading as it may stand in a marker and in the prompt. Brackets and semicolons
 * would break the marker syntax, and a section separator inside a title would let
 * `[Release › Rollback]` name both the page "Release › Rollback" and the section "Rollback" of
 * "Release": they never appear in a label. Nor does a data fence (see prompt.ts), since titles
 * stand outside the fenced text.
 */
export function cleanLabel(title: string): string {
  return title
    .replace(/\[/g, '(')
    .replace(/\]/g, ')')
    .replace(/;/g, ',')
    .replace(SEPARATORS, ' - ')
    .replace(/<(\/?)(document|conversation)/gi, '‹$1$2')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_LABEL_CHARS)
    .trim();
}

/** 'component:default/payments' → 'payments'. */
export function entityName(entityRef: string): string {
  const afterKind = entityRef.includes(':')
    ? entityRef.slice(entityRef.indexOf(':') + 1)
    : entityRef;
  return afterKind.includes('/')
    ? afterKind.slice(afterKind.lastIndexOf('/') + 1)
    : afterKind;
}

/**
 * The headings below the document title, e.g. ['Rollback', 'Manual'] for
 * 'Release › Rollback › Manual'.
 */
export function chunkSections(
  chunk: Pick<RetrievedChunk, 'title' | 'sectionPath'>,
): string[] {
  // The path starts with the title, which may contain '›' itself.
  const title = chunk.title.trim();
  const path = chunk.sectionPath.trim();
  const titled =
    title &&
    path.startsWith(title) &&
    /^\s*(›|$)/.test(path.slice(title.length));
  const parts = (titled ? path.slice(title.length) : path)
    .split('›')
    .map(cleanLabel)
    .filter(Boolean);
  // After the cut title, a heading named like the page is a section of its own.
  if (
    !titled &&
    parts.length &&
    normalizeTitle(parts[0]) === normalizeTitle(cleanLabel(chunk.title))
  )
    parts.shift();
  return parts;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return groups;
}
