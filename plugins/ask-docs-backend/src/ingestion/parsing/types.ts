import { IndexedChunk } from '@askdocs/plugin-ask-docs-common';

/** A part of a page under one heading, located in the page text. */
export interface Section {
  /**
   * URL fragment for the section: the heading's own anchor, or the nearest enclosing one
   * ('' = top of page).
   */
  anchor: string;
  /**
   * Headings from the page title (excluded) down to this section, e.g.
   * ['Parameters', 'Storage Parameters'].
   */
  headingPath: string[];
  /** Heading level 1-6; 0 for the text before the first heading. */
  level: number;
  /**
   * The heading line as it appears at the start of `text` ('' for the text before the first
   * heading).
   */
  heading: string;
  /**
   * Identity of the section within its page: the anchor when the heading has its own, otherwise
   * derived from the enclosing anchor and the heading text. Unique within a page; chunk ids hang
   * off it.
   */
  key: string;
  /** The section text: heading line, then the body paragraphs separated by blank lines. */
  text: string;
  /** Offsets into the page text: `page.text.slice(charStart, charEnd) === text`. */
  charStart: number;
  charEnd: number;
}

/** A page rendered to plain text with its section structure. */
export interface ParsedPage {
  title: string;
  /** The sections' texts joined with a blank line ("\n\n"). */
  text: string;
  sections: Section[];
  /** Conditions worth recording on the document, e.g. PAGE_NOTE_TRUNCATED or PAGE_NOTE_EMPTY. */
  notes: string[];
}

export interface ParseHtmlPageOptions {
  /** Cap on the page text length; longer pages are cut and noted as truncated. Default 400 000. */
  maxPageChars?: number;
  /** Site name to strip from the `<title>` (e.g. techdocs_metadata.json `site_name`). */
  siteName?: string;
  /** Title to use when the page has neither a heading nor a `<title>` (e.g. the page path). */
  fallbackTitle?: string;
}

/**
 * A retrievable passage as the parser makes it: whole sentences from one section. The shared
 * fields are the index's (`IndexedChunk`); ingestion adds the document's and entity's.
 */
export interface Chunk
  extends Pick<
    IndexedChunk,
    | 'chunkId'
    | 'ordinal'
    | 'anchor'
    | 'sectionPath'
    | 'charStart'
    | 'charEnd'
    | 'text'
    | 'contentHash'
  > {
  /** Position of the chunk in its section (0-based); part of the chunk id. */
  indexInSection: number;
  /** The innermost heading, or the page title for the top of the page. */
  sectionTitle: string;
}

export interface ChunkOptions {
  documentId: string;
  /** Upper bound of a chunk's length in characters. Default 1200. */
  maxChars?: number;
  /**
   * How many trailing sentences of a chunk to repeat at the start of the next chunk of the same
   * section (0 or 1 is sensible). Default 0.
   */
  overlapSentences?: number;
  /**
   * A section's last chunk shorter than this takes sentences over from the chunk before it.
   * Default min(200, maxChars / 4). Not applied when overlapping.
   */
  minChars?: number;
}
