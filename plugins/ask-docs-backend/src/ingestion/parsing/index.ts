export { parseHtmlPage, cleanTitle, maxMarkupChars } from './parseHtmlPage';
export {
  chunkSections,
  sectionPathOf,
  DEFAULT_MAX_CHUNK_CHARS,
  SECTION_PATH_SEPARATOR,
} from './chunkSections';
export { splitSentences } from './sentences';
export type { Span } from './sentences';
export { entityToDocument } from './entityToDocument';
export type { EntityDocumentOptions } from './entityToDocument';
export {
  pageListFromMetadata,
  pageListFromSearchIndex,
  pageUrlPath,
} from './techdocsPages';
export {
  documentIdFor,
  chunkIdFor,
  chunkContentHash,
  sha256Hex,
} from './identity';
export {
  PAGE_NOTE_TRUNCATED,
  PAGE_NOTE_EMPTY,
  PAGE_NOTE_REDIRECT,
  DEFAULT_MAX_PAGE_CHARS,
} from './pageAssembly';
export type {
  Section,
  ParsedPage,
  ParseHtmlPageOptions,
  Chunk,
  ChunkOptions,
} from './types';
