/**
 * Citation markers in answer text.
 *
 * An answer cites a document by writing its title in square brackets, optionally followed by
 * a section: `[Release process]`, `[Release process › Rollback]`, or several at once:
 * `[Release process; Deployment › Canary]`. The backend turns markers into sources and the
 * frontend turns them into links; both must read them the same way, hence this shared parser.
 *
 * Decisions:
 * - Only square brackets count. A title mentioned in prose is not a citation.
 * - Section separators: `›` (canonical), `»`, and `>` when surrounded by spaces. `' - '` and
 *   `:` are NOT separators, because real titles contain them ("PostgreSQL - Backup").
 *   `title` is the text before the first separator; `label` keeps the whole unsplit text, so a
 *   consumer can first try it as a title of its own (a title that itself contains `›`).
 * - `;` separates several citations in one bracket. Each yields its own marker; they share
 *   `raw`, `start` and `end` (the whole bracket), so a renderer groups them by `start`.
 * - Not citations: markdown links and images `[text](url)`, reference definitions
 *   `[ref]: url`, escaped `\[`, checkboxes `[ ]`/`[x]`, footnotes `[^1]`, purely numeric
 *   brackets `[1]`, `[1, 2]`, `[1-3]`, and anything inside inline code or fenced code blocks.
 *   Numbers are never mapped to context blocks: the block numbers in the prompt are internal,
 *   mean nothing to a reader, and `x[1]` is far more often an index than a citation. The prompt
 *   tells the model to cite by title only.
 */

/** The canonical separator between a title and its sections (matches chunk section paths). */
export const SECTION_SEPARATOR = ' › ';

/** One citation found in answer text. */
export interface CitationMarker {
  /** The whole bracket as written, e.g. `[Release process › Rollback; FAQ]`. */
  raw: string;
  /** This citation's text before splitting, e.g. `Release process › Rollback`. */
  label: string;
  /** The cited title, e.g. `Release process`. */
  title: string;
  /** The cited section path after the title, joined with `' › '`, e.g. `Rollback`. */
  section?: string;
  /** Offset of `[` in the text. */
  start: number;
  /** Offset just after `]`. */
  end: number;
}

/**
 * Longest citation considered, per `;`-separated part (a bracket may cite several documents);
 * anything longer is prose. Cite-as markers in the prompt stay below it.
 */
export const MAX_CITATION_CHARS = 500;
const BRACKET = /\[([^[\]\n]+)\]/g;
/** What separates a title from its sections in a marker: '›', '»' or a spaced '>'. */
export const SECTION_SEPARATOR_PATTERN = /\s*[›»]\s*|\s+>\s+/;
const SEPARATOR = SECTION_SEPARATOR_PATTERN;
const CHECKBOX = /^\s*[xX]?\s*$/;
const NUMERIC = /^[\d\s,.\-–—]+$/;

/** Finds every citation marker in `text`, in order of appearance. */
export function parseCitationMarkers(text: string): CitationMarker[] {
  const code = codeRanges(text);
  const markers: CitationMarker[] = [];
  for (const match of text.matchAll(BRACKET)) {
    const start = match.index ?? 0;
    const end = start + match[0].length;
    if (isInside(code, start)) continue;
    if (start > 0 && text[start - 1] === '\\') continue;
    const next = text[end];
    if (next === '(') continue; // [text](url) and ![alt](src)
    // [ref]: url, a reference definition; "[Release process]: run …" is a citation.
    if (next === ':' && isLineStart(text, start) && isUrlAfter(text, end + 1))
      continue;
    const inner = match[1];
    if (CHECKBOX.test(inner) || /^\s*\^/.test(inner)) continue;
    for (const part of inner.split(';')) {
      const label = part.trim();
      if (!label || label.length > MAX_CITATION_CHARS || NUMERIC.test(label))
        continue;
      const pieces = label.split(SEPARATOR).map(p => p.trim());
      const title = pieces[0];
      if (!title) continue;
      const sections = pieces.slice(1).filter(Boolean);
      markers.push({
        raw: match[0],
        label,
        title,
        ...(sections.length
          ? { section: sections.join(SECTION_SEPARATOR) }
          : {}),
        start,
        end,
      });
    }
  }
  return markers;
}

/**
 * Whether the rest of the line is a reference definition's destination: one token (a URL, a
 * path, an <angle> link), optionally with a quoted or parenthesised title; not a sentence.
 */
function isUrlAfter(text: string, from: number): boolean {
  const lineEnd = text.indexOf('\n', from);
  const rest = text.slice(from, lineEnd < 0 ? undefined : lineEnd);
  return /^[ \t]*(?:<[^>]*>|\S+)(?:[ \t]+(?:"[^"]*"|'[^']*'|\([^)]*\)))?[ \t]*$/.test(
    rest,
  );
}

/** Splits a section path or cited section on any accepted separator. */
export function splitSectionPath(path: string): string[] {
  return path
    .split(SEPARATOR)
    .map(p => p.trim())
    .filter(Boolean);
}

const TYPOGRAPHIC: Array<[RegExp, string]> = [
  [/[\u2018\u2019\u201a\u201b\u2032]/g, "'"],
  [/[\u201c\u201d\u201e\u201f\u2033]/g, '"'],
  [/[\u2010\u2011\u2012\u2013\u2014\u2212]/g, '-'],
  [/[\u200b\u200c\u200d\u2060\ufeff]/g, ''],
];
// Emphasis and quotes a model may wrap a title in: [**Title**], ["Title"].
const WRAPPERS = /^[\s*_`"'«»]+|[\s*_`"'«»]+$/g;
const TRAILING_PUNCTUATION = /[\s.,;:!?…]+$/;

/**
 * The comparison key of a title: NFC, case-folded, typographic quotes and dashes unified,
 * whitespace collapsed, surrounding quotes/emphasis and trailing punctuation removed.
 * Both sides of a comparison must go through this.
 */
export function normalizeTitle(title: string): string {
  let s = title.normalize('NFC');
  for (const [pattern, replacement] of TYPOGRAPHIC)
    s = s.replace(pattern, replacement);
  // Upper then lower folds ß → ss and final sigma, which toLowerCase alone does not.
  s = s.toUpperCase().toLowerCase().normalize('NFC');
  s = s.replace(/\s+/g, ' ');
  let previous;
  do {
    previous = s;
    s = s.replace(WRAPPERS, '').replace(TRAILING_PUNCTUATION, '');
  } while (s !== previous);
  return s;
}

function codeRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  // Fenced blocks: ``` or ~~~ at line start up to the matching fence (or the end of the text).
  const fence =
    /^[ \t]{0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^[ \t]{0,3}\1[ \t]*$|(?![\s\S]))/gm;
  for (const m of text.matchAll(fence)) {
    ranges.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
  }
  // Inline code: a backtick run up to the same run, within one paragraph.
  const inline = /(?<!`)(`+)(?!`)((?:(?!\n[ \t]*\n)[\s\S])*?[^`])\1(?!`)/g;
  for (const m of text.matchAll(inline)) {
    const at = m.index ?? 0;
    if (!isInside(ranges, at)) ranges.push([at, at + m[0].length]);
  }
  return ranges;
}

function isInside(ranges: Array<[number, number]>, offset: number): boolean {
  return ranges.some(([from, to]) => offset >= from && offset < to);
}

function isLineStart(text: string, offset: number): boolean {
  const before = text.slice(text.lastIndexOf('\n', offset - 1) + 1, offset);
  return /^[ \t]*$/.test(before);
}
