import { AnyNode, Element, hasChildren, isTag, isText } from 'domhandler';
import { classList, findAll, findFirst, isHeadingTag } from './domQueries';
import {
  isExcluded,
  isNonSectioning,
  LINE_TAGS,
  PARAGRAPH_TAGS,
} from './contentRules';
import {
  BreakLevel,
  normalizeInline,
  RawSection,
  TextWriter,
} from './textWriter';

export interface RenderResult {
  sections: RawSection[];
  /** True when rendering stopped early because the text outgrew the budget. */
  stoppedEarly: boolean;
}

/** An element with an id that is still open, remembered to anchor a heading that starts it. */
interface OpenId {
  id: string;
  serial: number;
}

type Step = AnyNode | (() => void);

/**
 * Renders the content below `root` into sections of paragraphs. Walks with an explicit stack
 * (pages can nest deeper than the call stack allows) and stops once `budget` characters are
 * written.
 */
export function renderContent(root: AnyNode, budget: number): RenderResult {
  const writer = new TextWriter();
  const openIds: OpenId[] = [];
  let listDepth = 0;
  let nonSectioningDepth = 0;

  // Inside lists, paragraphs only break lines, so an item's paragraphs stay with the item.
  const paragraph = (): BreakLevel => (listDepth > 0 ? 1 : 2);

  const stack: Step[] = hasChildren(root)
    ? [...root.children].reverse()
    : [root];
  while (stack.length > 0) {
    if (writer.length > budget)
      return { sections: writer.finish(), stoppedEarly: true };
    const step = stack.pop()!;
    if (typeof step === 'function') {
      step();
      continue;
    }
    if (isText(step)) {
      writer.text(step.data);
      continue;
    }
    if (!isTag(step)) {
      // CDATA and documents carry children; comments and directives do not.
      if (hasChildren(step)) pushChildren(stack, step.children);
      continue;
    }
    const el = step;
    if (isExcluded(el)) continue;
    const name = el.name;

    if (name === 'br') {
      writer.requestBreak(1);
      continue;
    }
    if (name === 'hr') {
      writer.requestBreak(paragraph());
      continue;
    }
    if (name === 'pre') {
      writer.preformatted(preformattedLines(el), paragraph());
      continue;
    }
    if (
      name === 'table' &&
      !findFirst(el.children, e => e.name === 'pre', isExcluded)
    ) {
      renderTable(el, writer, paragraph());
      continue;
    }
    if (isHeadingTag(el) && nonSectioningDepth === 0) {
      // Block content inside a heading (an unclosed <h2> swallowing the page) is body, not heading.
      const blocks = el.children.filter(c => isTag(c) && isBlockElement(c));
      const text = inlineText(
        el,
        blocks.length > 0 ? new Set(blocks) : undefined,
      );
      if (text) {
        writer.heading({
          text,
          level: Number(name[1]),
          anchor: headingAnchor(el, openIds, writer.serial),
        });
      }
      pushChildren(stack, blocks);
      continue;
    }

    const exits: Array<() => void> = [];
    const id = el.attribs.id;
    if (id) {
      openIds.push({ id, serial: writer.serial });
      exits.push(() => openIds.pop());
    }
    if (isNonSectioning(el)) {
      nonSectioningDepth++;
      exits.push(() => nonSectioningDepth--);
    }
    if (name === 'ul' || name === 'ol') {
      // Items become lines without markers, as in the rendered text a reader copies.
      writer.requestBreak(paragraph());
      listDepth++;
      exits.push(() => {
        listDepth--;
        writer.requestBreak(paragraph());
      });
    } else if (PARAGRAPH_TAGS.has(name)) {
      const level = paragraph();
      writer.requestBreak(level);
      exits.push(() => writer.requestBreak(level));
    } else if (LINE_TAGS.has(name)) {
      writer.requestBreak(1);
      exits.push(() => writer.requestBreak(1));
    }

    if (exits.length > 0) {
      stack.push(() => {
        for (let i = exits.length - 1; i >= 0; i--) exits[i]();
      });
    }
    pushChildren(stack, tabbedSteps(el, writer, paragraph()) ?? el.children);
  }
  return { sections: writer.finish(), stoppedEarly: false };
}

function isBlockElement(el: Element): boolean {
  return (
    PARAGRAPH_TAGS.has(el.name) ||
    LINE_TAGS.has(el.name) ||
    el.name === 'pre' ||
    el.name === 'ul' ||
    el.name === 'ol'
  );
}

function pushChildren(stack: Step[], children: readonly Step[]): void {
  for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
}

/**
 * Content tabs as pymdownx.tabbed writes them with `alternate_style` (MkDocs material): all labels
 * in `.tabbed-labels`, then all blocks in `.tabbed-content`. Read in that order, the labels run
 * together ("LinuxWindows") and no block says which tab it is; so each label becomes a paragraph
 * before its own block. Undefined for any other element (the older style needs nothing: each
 * label already precedes its block).
 */
function tabbedSteps(
  el: Element,
  writer: TextWriter,
  level: BreakLevel,
): Step[] | undefined {
  if (!el.attribs.class || !classList(el).includes('tabbed-set'))
    return undefined;
  const part = (name: string) =>
    el.children.find(
      (c): c is Element => isTag(c) && classList(c).includes(name),
    );
  const labels = part('tabbed-labels');
  const content = part('tabbed-content');
  if (!labels || !content) return undefined;
  const labelTexts = findAll(
    labels.children,
    e => e.name === 'label',
    isExcluded,
  ).map(l => inlineText(l));
  const blocks = content.children.filter(c => isTag(c) && !isExcluded(c));
  const steps: Step[] = [];
  blocks.forEach((block, i) => {
    const label = labelTexts[i];
    if (label) {
      steps.push(() => {
        writer.requestBreak(level);
        writer.text(label);
        writer.requestBreak(level);
      });
    }
    steps.push(block);
  });
  return steps;
}

/**
 * The heading's anchor: its own id, an `<a id|name>` inside it (DocBook), or the id of an enclosing
 * element that this heading starts (DocBook `div.sect1`), i.e. nothing was written since it opened.
 */
function headingAnchor(
  heading: Element,
  openIds: OpenId[],
  serial: number,
): string {
  const own = heading.attribs.id;
  let anchor = own ?? '';
  if (!anchor) {
    const a = findFirst(
      heading.children,
      e => e.name === 'a' && !!(e.attribs.id || e.attribs.name),
    );
    if (a) anchor = a.attribs.id || a.attribs.name;
  }
  for (let i = openIds.length - 1; i >= 0; i--) {
    const open = openIds[i];
    if (open.serial !== serial) break;
    if (!anchor) anchor = open.id;
    // The container's first heading has been seen; it cannot anchor a later one.
    open.serial = -1;
  }
  return anchor;
}

/** Text of an element on one line (headings, table cells); block boundaries become spaces. */
export function inlineText(
  el: Element,
  without?: ReadonlySet<AnyNode>,
): string {
  const parts: string[] = [];
  // Strings on the stack are separators to emit once the walk reaches them.
  const stack: Array<AnyNode | string> = el.children
    .filter(c => !without?.has(c))
    .reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node === 'string') {
      parts.push(node);
      continue;
    }
    if (isText(node)) {
      parts.push(node.data);
      continue;
    }
    if (isTag(node)) {
      if (isExcluded(node)) continue;
      if (node.name === 'br' || isBlockElement(node)) {
        parts.push(' ');
        stack.push(' ');
      }
    }
    if (hasChildren(node)) {
      for (let i = node.children.length - 1; i >= 0; i--)
        stack.push(node.children[i]);
    }
  }
  return normalizeInline(parts.join('')).replace(/\s*¶$/, '');
}

/**
 * A table as one line per row, cells separated by " | "; empty cells at a row's end, and all of a
 * layout table's, vanish.
 */
function renderTable(
  table: Element,
  writer: TextWriter,
  level: BreakLevel,
): void {
  const rows = findAll(
    table.children,
    e => e.name === 'tr' || e.name === 'caption',
    e => e.name === 'table' || isExcluded(e),
  );
  const layout = isLayoutTable(table);
  writer.requestBreak(level);
  if (rows.length === 0) {
    writer.text(inlineText(table));
  }
  for (const row of rows) {
    let line: string;
    if (row.name === 'caption') {
      line = inlineText(row);
    } else {
      const cells = row.children
        .filter(
          (c): c is Element =>
            isTag(c) && (c.name === 'td' || c.name === 'th') && !isExcluded(c),
        )
        .map(c => inlineText(c));
      // In a data table an empty cell keeps its place, or the cells after it would read as the
      // wrong column; a layout table's empty cells (icons, spacers) are nothing to read.
      while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
      line = (layout ? cells.filter(Boolean) : cells).join(' | ');
    }
    if (line) {
      writer.requestBreak(1);
      writer.text(line);
    }
  }
  writer.requestBreak(level);
}

/**
 * A table for layout rather than data: marked presentational, or borderless as DocBook writes its
 * admonitions (an icon cell beside the text), block quotes and simple lists.
 */
function isLayoutTable(table: Element): boolean {
  const role = table.attribs.role;
  return (
    role === 'presentation' || role === 'none' || table.attribs.border === '0'
  );
}

/**
 * Lines of a code block: verbatim, right-trimmed, common indentation removed, blank runs collapsed.
 */
function preformattedLines(pre: Element): string[] {
  const parts: string[] = [];
  const stack: AnyNode[] = [...pre.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isText(node)) {
      parts.push(node.data);
      continue;
    }
    if (isTag(node)) {
      if (isExcluded(node)) continue;
      if (node.name === 'br') parts.push('\n');
    }
    if (hasChildren(node)) pushChildren(stack, node.children);
  }
  const raw = parts
    .join('')
    .replace(/\r\n?/g, '\n')
    // Zero-width characters, and NUL, which PostgreSQL text columns refuse.
    .replace(/[\u0000\u200b-\u200d\u2060\ufeff]/g, '')
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map(l => l.trimEnd());
  const lines: string[] = [];
  for (const l of raw) {
    if (l === '' && (lines.length === 0 || lines[lines.length - 1] === ''))
      continue;
    lines.push(l);
  }
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  let common = Infinity;
  for (const l of lines) {
    if (l !== '') common = Math.min(common, /^[ \t]*/.exec(l)![0].length);
  }
  if (!Number.isFinite(common)) common = 0;
  return common > 0 ? lines.map(l => l.slice(common)) : lines;
}
