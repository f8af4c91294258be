import { ParsedPage, Section } from './types';
import { RawSection } from './textWriter';

/** Note recorded when a page's text was cut at `maxPageChars`. */
export const PAGE_NOTE_TRUNCATED = 'truncated';
/** Note recorded when a page has no text at all. */
export const PAGE_NOTE_EMPTY = 'empty';
/** Note recorded when a page only redirects elsewhere (mkdocs-redirects); its text is left out. */
export const PAGE_NOTE_REDIRECT = 'redirect';

export const DEFAULT_MAX_PAGE_CHARS = 400_000;

const SECTION_SEPARATOR = '\n\n';

interface OpenHeading {
  level: number;
  text: string;
  anchor: string;
  key: string;
}

/**
 * Turns rendered sections into the page: heading paths from heading levels, anchors inherited
 * from the enclosing section where a heading has none, unique section keys, and offsets into the
 * joined text, which is capped at `maxChars`.
 */
export function assemblePage(
  title: string,
  raw: RawSection[],
  maxChars: number,
): ParsedPage {
  const notes: string[] = [];
  const built: Array<Omit<Section, 'charStart' | 'charEnd'>> = [];
  const keyCounts = new Map<string, number>();
  let stack: OpenHeading[] = [];
  let rootAnchor = '';
  let rootKey = '';

  for (const rs of raw) {
    const h = rs.heading;
    let anchor = '';
    let key = '';
    let headingPath: string[] = [];
    if (!h) {
      if (rs.blocks.length === 0) continue;
    } else if (h.isTitle) {
      stack = [];
      anchor = h.anchor;
      key = h.anchor || `>${h.text}`;
      rootAnchor = anchor;
      rootKey = key;
    } else {
      while (stack.length > 0 && stack[stack.length - 1].level >= h.level)
        stack.pop();
      const parent = stack[stack.length - 1];
      anchor = h.anchor || (parent ? parent.anchor : rootAnchor);
      key = h.anchor || `${parent ? parent.key : rootKey}>${h.text}`;
      headingPath = [...stack.map(s => s.text), h.text];
      stack.push({ level: h.level, text: h.text, anchor, key });
    }
    const count = (keyCounts.get(key) ?? 0) + 1;
    keyCounts.set(key, count);
    const text = (h ? [h.text, ...rs.blocks] : rs.blocks).join('\n\n');
    built.push({
      anchor,
      headingPath,
      level: h ? h.level : 0,
      heading: h ? h.text : '',
      key: count === 1 ? key : `${key}#${count}`,
      text,
    });
  }

  const sections: Section[] = [];
  let text = '';
  for (const b of built) {
    const separator = sections.length > 0 ? SECTION_SEPARATOR : '';
    const charStart = text.length + separator.length;
    let sectionText = b.text;
    const truncated = charStart + sectionText.length > maxChars;
    if (truncated) {
      sectionText = cutText(sectionText, maxChars - charStart);
      notes.push(PAGE_NOTE_TRUNCATED);
    }
    if (sectionText) {
      text += separator + sectionText;
      sections.push({
        ...b,
        text: sectionText,
        charStart,
        charEnd: charStart + sectionText.length,
      });
    }
    if (truncated) break;
  }
  if (sections.length === 0) notes.push(PAGE_NOTE_EMPTY);
  return { title, text, sections, notes };
}

/** The longest prefix of `s` within `room` characters that ends at a line or word boundary. */
function cutText(s: string, room: number): string {
  if (room <= 0) return '';
  if (s.length <= room) return s;
  const window = s.slice(0, room + 1);
  const lineBreak = window.lastIndexOf('\n');
  let end = lineBreak >= room / 2 ? lineBreak : window.search(/\s\S*$/);
  if (end <= 0) {
    end = room;
    // Do not leave half of a surrogate pair behind.
    const code = s.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
  }
  return s.slice(0, end).trimEnd();
}
