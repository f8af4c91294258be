/** A heading found while rendering; `anchor` is '' when neither it nor its container has one. */
export interface RawHeading {
  text: string;
  level: number;
  anchor: string;
  /** Set when this heading is the page title: it starts the page rather than a nested section. */
  isTitle?: boolean;
}

/**
 * Rendered paragraphs under one heading (or before the first heading), before offsets are assigned.
 */
export interface RawSection {
  heading?: RawHeading;
  blocks: string[];
}

/** 0 = none, 1 = line break, 2 = paragraph break. */
export type BreakLevel = 0 | 1 | 2;

// Characters that render as nothing (zero-width spaces, joiners, BOM, soft hyphen), and NUL,
// which PostgreSQL text columns refuse (failing the whole page's write).
const INVISIBLE = /[\u0000\u200b-\u200d\u2060\ufeff\u00ad]/g;
const WHITESPACE = /[\s\u00a0]+/g;

export function normalizeInline(s: string): string {
  return s.replace(INVISIBLE, '').replace(WHITESPACE, ' ').trim();
}

/**
 * Builds page text the way a browser lays it out: inline whitespace collapses to one space,
 * block elements request line or paragraph breaks, and breaks are only materialised between
 * pieces of visible text (so empty elements leave no blank lines).
 */
export class TextWriter {
  readonly sections: RawSection[] = [{ blocks: [] }];
  /**
   * Increments whenever visible text is written, so callers can tell whether anything came in
   * between.
   */
  serial = 0;
  /** Characters written so far (approximate, for the size budget). */
  length = 0;

  private lines: string[] = [];
  private line = '';
  private lineHasText = false;
  private space = false;
  private pending: BreakLevel = 0;

  text(s: string): void {
    const collapsed = s.replace(INVISIBLE, '').replace(WHITESPACE, ' ');
    if (collapsed === '') return;
    const core = collapsed.trim();
    if (core === '') {
      this.space = true;
      return;
    }
    if (collapsed.startsWith(' ')) this.space = true;
    this.applyBreak();
    if (this.lineHasText && this.space) {
      this.line += ' ';
      this.length++;
    }
    this.line += core;
    this.lineHasText = true;
    this.space = collapsed.endsWith(' ');
    this.serial++;
    this.length += core.length;
  }

  requestBreak(level: BreakLevel): void {
    if (level > this.pending) this.pending = level;
  }

  /**
   * Verbatim lines (code), as a paragraph of their own, or as lines of the current one inside a
   * list.
   */
  preformatted(lines: string[], level: BreakLevel): void {
    if (lines.length === 0) return;
    this.requestBreak(level);
    this.applyBreak();
    this.finishLine();
    for (const l of lines) {
      this.lines.push(l);
      this.length += l.length + 1;
    }
    this.serial++;
    this.requestBreak(level);
  }

  heading(h: RawHeading): void {
    this.finishParagraph();
    this.pending = 0;
    this.space = false;
    this.sections.push({ heading: h, blocks: [] });
    this.serial++;
    this.length += h.text.length + 2;
  }

  /** Flushes what is buffered; call once at the end. */
  finish(): RawSection[] {
    this.finishParagraph();
    return this.sections;
  }

  private applyBreak(): void {
    if (this.pending === 0) return;
    if (this.pending === 2) this.finishParagraph();
    else this.finishLine();
    this.pending = 0;
    this.space = false;
  }

  private finishLine(): void {
    if (this.lineHasText) this.lines.push(this.line.trimEnd());
    this.line = '';
    this.lineHasText = false;
  }

  private finishParagraph(): void {
    this.finishLine();
    // Code may carry blank lines of its own; trailing ones would only pad the paragraph.
    while (this.lines.length > 0 && this.lines[this.lines.length - 1] === '')
      this.lines.pop();
    if (this.lines.length > 0) {
      this.sections[this.sections.length - 1].blocks.push(
        this.lines.join('\n'),
      );
      this.length += 2;
    }
    this.lines = [];
  }
}
