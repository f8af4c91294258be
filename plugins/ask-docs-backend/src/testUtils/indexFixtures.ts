/*
 * Rows the store writes, made by hand for tests of the database layer: an entity, and a page whose
 * chunks are keyed by their words, without the language analysis or an embedder.
 */
import { createHash } from 'crypto';
import type {
  ChunkWrite,
  DocumentRow,
  EntityRow,
  PageWrite,
} from '../database/AskDocsStore';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** A model the tests' vectors (if any) are stored under. */
export const TEST_MODEL = { modelId: 'test-model', dimension: 2 };

/** The row of entity `ref` ("kind:namespace/name"), without owners, tags or labels. */
export function entityRowOf(ref: string): EntityRow {
  const [, kind, namespace, name] = /^([^:]+):([^/]+)\/(.+)$/.exec(ref)!;
  return {
    entityRef: ref,
    kind,
    namespace,
    name,
    title: name,
    owners: [],
    tags: [],
    labels: {},
    annotations: {},
    spec: {},
    etag: sha(ref).slice(0, 8),
  };
}

/**
 * A page of `texts`, one chunk each, keyed by its lowercase words (surface and lemma keys with
 * their counts); ids follow the entity, the path and the position, as the ingester's do.
 */
export function pageWriteOf(
  entityRef: string,
  path: string,
  texts: string[],
  options: { analysisSignature?: string } = {},
): PageWrite {
  const documentId = sha(`${entityRef}|${path}`).slice(0, 32);
  const doc: DocumentRow = {
    documentId,
    entityRef,
    sourceKind: 'techdocs',
    pagePath: path,
    title: path,
    url: `/docs/${path}`,
    lang: 'en',
    revision: sha(texts.join('|')).slice(0, 8),
    contentHash: sha(texts.join('|')),
    textLength: texts.join('\n').length,
    ...(options.analysisSignature
      ? { analysisSignature: options.analysisSignature }
      : {}),
  };
  const chunks = texts.map((text, i): ChunkWrite => {
    const words = text.toLowerCase().split(/\s+/).filter(Boolean);
    const tf = new Map<string, number>();
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    return {
      chunkId: sha(`${documentId}|${i}`).slice(0, 32),
      ordinal: i,
      title: path,
      sectionPath: path,
      anchor: '',
      charStart: 0,
      charEnd: text.length,
      text,
      contentHash: sha(text),
      lang: 'en',
      termCount: words.length,
      terms: [...tf].flatMap(([term, n]) => [
        { kind: 'w' as const, term, tf: n },
        { kind: 'l' as const, term, tf: n },
      ]),
    };
  });
  return { doc, chunks, vectors: new Map() };
}
