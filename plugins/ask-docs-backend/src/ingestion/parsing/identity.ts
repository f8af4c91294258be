import { createHash } from 'crypto';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

// Ids are 128 bits of sha256: plenty for uniqueness, and half the width in every index.
const ID_LENGTH = 32;

/**
 * The document id of a page (or of a catalog entity's own description, with pagePath '').
 * Entity refs compare case-insensitively in the catalog, so the ref is lower-cased first.
 */
export function documentIdFor(
  entityRef: string,
  sourceKind: string,
  pagePath: string,
): string {
  const path = pagePath.replace(/\\/g, '/').replace(/^(\.\/|\/)+/, '');
  return sha256Hex(
    ['document', sourceKind, entityRef.trim().toLowerCase(), path].join(
      '\u0000',
    ),
  ).slice(0, ID_LENGTH);
}

/**
 * A chunk's id depends on where it is (document, section, position in the section), not on what it
 * says, so editing a section keeps the ids of its chunks and leaves other sections' ids alone.
 */
export function chunkIdFor(
  documentId: string,
  sectionKey: string,
  indexInSection: number,
): string {
  return sha256Hex(
    ['chunk', documentId, sectionKey, String(indexInSection)].join('\u0000'),
  ).slice(0, ID_LENGTH);
}

/** What an embedding of the chunk is computed from: its text in the context of its section path. */
export function chunkContentHash(sectionPath: string, text: string): string {
  return sha256Hex(`${sectionPath}\n${text}`);
}
