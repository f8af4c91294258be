/*
 * Postings follow the language analysis they were made with (migration 0003). When the analysis
 * changes while the text does not (here: the Czech dictionary arrives, as when Debian's
 * hunspell-cs is installed or updated), the next run rebuilds the keys of unchanged chunks without
 * changing their ids, and queries analysed the new way find them. Their vectors are kept unless
 * the embedder computes them from the analysis (the hashing fallback's v2).
 */
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import { DatabaseAskDocsStore } from '../database/DatabaseAskDocsStore';
import { HashingEmbedder } from '../embedding';
import {
  analysisSignature,
  analyzeQuery,
  Analyzers,
  createLanguageAnalyzers,
} from '../language';
import { resolveVisibility, Visibility } from '../permissions';
import { keywordSearch } from '../retrieval';
import { fakePermissions } from '../testUtils/fakePermissions';
import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import { Ingester } from './Ingester';
import { EntitySource, TechDocsReader } from './sources';
import { IndexReader } from '../database/IndexReader';

const entity: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'kancelar',
    namespace: 'default',
    annotations: { 'backstage.io/techdocs-ref': 'dir:.' },
  },
  spec: {
    type: 'documentation',
    owner: 'group:default/office',
    lifecycle: 'production',
  },
  relations: [{ type: 'ownedBy', targetRef: 'group:default/office' }],
};

const page = (body: string) =>
  `<html><body><div class="md-content"><article class="md-content__inner ` +
  `md-typeset">${body}</article></div></body></html>`;

const PAGES: Record<string, string> = {
  'pravidla/index.html': page(
    '<h1 id="psi">Psi v kanceláři</h1><p>Do kanceláře smíte vzít svého psa, pokud je ' +
      'očkovaný a klidný. Se psem choďte ven každé dvě hodiny a misku s vodou mějte u ' +
      'stolu, ne u stěn.</p><h2 id="parkovani">Parkování</h2><p>Parkovací místa se ' +
      'rezervují den předem v recepci u vchodu.</p>',
  ),
  'ostatni/index.html': page(
    '<h1 id="kava">Káva</h1><p>Kávovar čistíme každý pátek odpoledne, odvápnění jednou ' +
      'za měsíc.</p>',
  ),
};

class Fixtures implements EntitySource, TechDocsReader {
  async *listEntities() {
    yield entity;
  }
  async getSite() {
    return { siteName: 'Kancelář', etag: 'build-1', pages: Object.keys(PAGES) };
  }
  async getPage(_: Entity, pagePath: string) {
    return PAGES[pagePath];
  }
}

describe('re-analysis when the language analysis changes', () => {
  let db: TestDatabase;
  let stemOnly: Analyzers;
  let withDictionary: Analyzers;
  let visibility: Visibility;
  const fixtures = new Fixtures();
  // One embedder for the runs, independent of the analysis (v1): what changes is the keyword
  // analysis only.
  let embedder: HashingEmbedder;

  const ingest = (analyzers: Analyzers, withEmbedder = embedder) =>
    new Ingester({
      store: new DatabaseAskDocsStore(db.knex),
      entities: fixtures,
      techdocs: fixtures,
      embedder: withEmbedder,
      analyzers,
      languages: ['en', 'cs'],
      logger: mockServices.logger.mock(),
    }).run('manual');

  const snapshot = async () => ({
    chunks: await db
      .knex('ask_docs_chunks')
      .orderBy('chunk_id')
      // first_seen: an unchanged text keeps it when its row is rewritten (migration 0008)
      .select('chunk_id', 'content_hash', 'first_seen'),
    vectors: await db
      .knex('ask_docs_embeddings')
      .orderBy('chunk_id')
      .select('chunk_id', 'content_hash', db.knex.raw('embedding::text AS v')),
    versions: await db
      .knex('ask_docs_chunk_versions')
      .orderBy('chunk_id')
      .select('chunk_id', 'content_hash', 'superseded_at'),
    signatures: (
      await db.knex('ask_docs_documents').select('analysis_signature')
    ).map(r => r.analysis_signature),
    lemmas: (
      await db
        .knex('ask_docs_keys as k')
        .join('ask_docs_postings as p', 'p.key_id', 'k.key_id')
        .where('k.kind', 'l')
        .distinct('k.term')
    )
      .map(r => r.term)
      .sort(),
  });

  /** Chunks the Czech lemma keys of a word find, as the dictionary analyses it (stems aside). */
  const lemmaHits = async (word: string) => {
    const queryTokens = analyzeQuery(word, withDictionary).map(t => ({
      token: t.token,
      lemmas: withDictionary.get('cs').keysForWord(t.token).lemmas.slice(),
      stems: [],
    }));
    const { hits } = await keywordSearch({
      reader: new IndexReader(db.knex, visibility),
      queryTokens,
      limit: 10,
    });
    return hits.length;
  };

  beforeAll(async () => {
    db = await startTestDatabase();
    // As on a machine without hunspell-cs: Czech runs stem-only.
    stemOnly = await createLanguageAnalyzers({
      languages: ['en', 'cs'],
      hunspell: {
        cs: {
          affPath: '/nonexistent/cs_CZ.aff',
          dicPath: '/nonexistent/cs_CZ.dic',
        },
      },
      onMissingDictionary: 'stem-only',
      logger: { warn: () => {} },
    });
    withDictionary = await createLanguageAnalyzers({ languages: ['en', 'cs'] });
    embedder = new HashingEmbedder();
    visibility = await resolveVisibility({
      permissions: fakePermissions({}),
      credentials: mockCredentials.user(),
    });
  });
  afterAll(async () => {
    await db?.stop();
  });

  it('the two analyses differ, in signature and in keys', () => {
    expect(analysisSignature(stemOnly)).not.toEqual(
      analysisSignature(withDictionary),
    );
    // "stěn" (genitive plural) shares no key with "stěna" unless the dictionary lemmatises it.
    expect(stemOnly.get('cs').keysForWord('stěn').lemmas).not.toContain(
      'stena',
    );
    expect(withDictionary.get('cs').keysForWord('stěn').lemmas).toContain(
      'stena',
    );
  });

  it('rebuilds the postings of unchanged chunks, keeping ids and vectors', async () => {
    const first = await ingest(stemOnly);
    expect(first.errors).toEqual([]);
    expect(first.chunksWritten).toBeGreaterThanOrEqual(3);
    expect(first.chunksReanalysed).toBe(0);
    const before = await snapshot();
    expect(
      before.signatures.every(
        s => s === analysisSignature(stemOnly, ['en', 'cs']),
      ),
    ).toBe(true);
    expect(before.lemmas).not.toContain('stena');
    // Against stem-only postings the question's lemma key finds nothing.
    expect(await lemmaHits('stěna')).toBe(0);

    const second = await ingest(withDictionary);
    expect(second.errors).toEqual([]);
    expect(second.pagesSkipped).toBe(0);
    expect(second.chunksWritten).toBe(0); // no text changed
    expect(second.chunksEmbedded).toBe(0); // so nothing is embedded again
    expect(second.chunksReanalysed).toBe(before.chunks.length);
    const after = await snapshot();
    expect(after.chunks).toEqual(before.chunks);
    expect(after.vectors).toEqual(before.vectors);
    // No new versions, nothing superseded: the texts answers cited are the same texts.
    expect(after.versions).toEqual(before.versions);
    expect(
      after.signatures.every(
        s => s === analysisSignature(withDictionary, ['en', 'cs']),
      ),
    ).toBe(true);
    expect(after.lemmas).toContain('stena');
    expect(await lemmaHits('stěna')).toBe(1);
    // The typo vocabulary is the surface keys' lists: the word is in one chunk, once.
    const vocabulary = await db
      .knex('ask_docs_keys as k')
      .join('ask_docs_postings as p', 'p.key_id', 'k.key_id')
      .where({ 'k.kind': 'w', 'k.term': 'psa' })
      .select('p.df');
    expect(vocabulary.map(r => r.df)).toEqual([1]);

    // The run is reported with its re-analysed chunks.
    const run = await new DatabaseAskDocsStore(db.knex).latestRun();
    expect(run?.chunksReanalysed).toBe(before.chunks.length);
  });

  it('does not touch postings again while the analysis stays the same', async () => {
    const lists = () =>
      db
        .knex('ask_docs_postings')
        .orderBy(['key_id', 'entity_no'])
        .select('key_id', 'entity_no', 'df', 'postings');
    const before = await lists();
    const third = await ingest(withDictionary);
    // pages and the catalog document
    expect(third.pagesSkipped).toBe(Object.keys(PAGES).length + 1);
    expect(third.chunksReanalysed).toBe(0);
    expect(third.chunksWritten).toBe(0);
    expect(before.length).toBeGreaterThan(0);
    expect(await lists()).toEqual(before);
  });

  it('re-analyses documents indexed before signatures were recorded, once', async () => {
    await db.knex('ask_docs_documents').update({ analysis_signature: null });
    const legacy = await ingest(withDictionary);
    expect(legacy.chunksReanalysed).toBeGreaterThan(0);
    expect(legacy.chunksEmbedded).toBe(0);
    const again = await ingest(withDictionary);
    expect(again.chunksReanalysed).toBe(0);
  });

  it('embeds unchanged chunks again when the vectors come from the analysis', async () => {
    // The plugin builds the fallback's v2 from the configured analyzers: a new dictionary (or a
    // new keys version) changes its vectors under the same model id.
    const v2 = (analyzers: Analyzers) => new HashingEmbedder({ analyzers });
    expect(v2(stemOnly).modelId).toBe(v2(withDictionary).modelId);
    await ingest(stemOnly, v2(stemOnly));
    const before = await snapshot();
    const changed = await ingest(withDictionary, v2(withDictionary));
    expect(changed.errors).toEqual([]);
    expect(changed.chunksWritten).toBe(0);
    expect(changed.chunksReanalysed).toBe(before.chunks.length);
    expect(changed.chunksEmbedded).toBe(before.chunks.length);
    const after = await snapshot();
    expect(after.chunks).toEqual(before.chunks);
    expect(after.vectors).not.toEqual(before.vectors);
    // Nothing again while the analysis stays.
    const same = await ingest(withDictionary, v2(withDictionary));
    expect(same.chunksEmbedded).toBe(0);
  });
});
