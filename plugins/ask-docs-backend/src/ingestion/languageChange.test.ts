/*
 * A page's language is detected from its whole text, and every chunk is analysed in it. When an
 * edit elsewhere on the page changes that language (a Czech page gains a long English section),
 * its unchanged chunks are analysed again in the new language, as a fresh index of the page
 * would: otherwise they keep the keys of the old one. While the language stays, they are not.
 */
import { mockServices } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import { DatabaseAskDocsStore } from '../database/DatabaseAskDocsStore';
import { indexedChunkKeys } from '../database/keywordIndex';
import { decodeKeyIds } from '../database/postingList';
import { HashingEmbedder } from '../embedding';
import { Analyzers, createLanguageAnalyzers } from '../language';
import { useTestDatabase } from '../testUtils/testDatabase';
import { Ingester } from './Ingester';
import { EntitySource, TechDocsReader } from './sources';

const entity: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'nasazeni',
    namespace: 'default',
    annotations: { 'backstage.io/techdocs-ref': 'dir:.' },
  },
  spec: { type: 'documentation', owner: 'group:default/ops' },
};
const ENTITY_REF = 'component:default/nasazeni';

const html = (second: string) =>
  '<html><body><article class="md-content__inner">' +
  '<h1 id="nasazeni">Nasazení služby</h1><p>Službu nasadíte příkazem shipctl deploy. Před ' +
  'nasazením zkontrolujte, že všechny testy prošly a že je v kanceláři někdo, kdo může ' +
  `pomoci.</p><h2 id="navrat">${second}</article></body></html>`;

const CZECH =
  'Návrat verze</h2><p>Když se nasazení nepovede, vraťte předchozí verzi příkazem shipctl ' +
  'rollback a sledujte chyby na přehledu.</p>';
const CZECH_EDITED = CZECH.replace('nepovede', 'nepodaří');
const ENGLISH =
  'Rolling back</h2><p>If the deploy does not work, roll back to the previous version with ' +
  'shipctl rollback and then watch the errors on the dashboard. It is the fastest way to get ' +
  'the service back when something goes wrong with a new release, and you should do it ' +
  'before you start to look for the cause of the problem. When it is back, tell the team ' +
  'what you did and why, so that the next release does not fail in the same way.</p>';

class Fixtures implements EntitySource, TechDocsReader {
  second = CZECH;
  async *listEntities() {
    yield entity;
  }
  async getSite() {
    return { siteName: 'Ops', etag: 'build', pages: ['index.html'] };
  }
  async getPage() {
    return html(this.second);
  }
}

describe('a page whose language changed', () => {
  const db = useTestDatabase({ timeoutMs: 120_000 });
  let analyzers: Analyzers;
  const fixtures = new Fixtures();

  const ingest = () =>
    new Ingester({
      store: new DatabaseAskDocsStore(db.knex),
      entities: fixtures,
      techdocs: fixtures,
      embedder: new HashingEmbedder(),
      analyzers,
      languages: ['en', 'cs'],
      logger: mockServices.logger.mock(),
    }).run('manual');

  /** The first section's chunk, whose text stays, and its page's detected language. */
  const unchanged = async () =>
    db
      .knex('ask_docs_chunks as c')
      .join('ask_docs_documents as d', 'd.document_id', 'c.document_id')
      .where('c.anchor', 'nasazeni')
      .first('c.chunk_id', 'c.key_ids', 'c.lang', 'd.lang as page_lang');
  const keysOf = async (chunkId: string) =>
    (await indexedChunkKeys(db.knex, chunkId)).map(
      k => `${k.kind} ${k.term} ${k.tf}`,
    );

  beforeAll(async () => {
    analyzers = await createLanguageAnalyzers({ languages: ['en', 'cs'] });
  });

  it('does not analyse unchanged chunks again while the language stays', async () => {
    expect((await ingest()).errors).toEqual([]);
    const before = await unchanged();
    expect(before.page_lang).toBe('cs');
    // The lists of keys only the unchanged chunk has: rewritten, they would get a new xmin.
    const others = (
      await db
        .knex('ask_docs_chunks')
        .whereNot('chunk_id', before.chunk_id)
        .pluck('key_ids')
    ).flatMap(decodeKeyIds);
    const own = decodeKeyIds(before.key_ids).filter(k => !others.includes(k));
    expect(own.length).toBeGreaterThan(0);
    const lists = () =>
      db
        .knex('ask_docs_postings')
        .whereIn('key_id', own)
        .orderBy('key_id')
        .select('key_id', db.knex.raw('xmin::text AS xmin'));
    const listsBefore = await lists();

    fixtures.second = CZECH_EDITED;
    const edited = await ingest();
    expect(edited.errors).toEqual([]);
    expect(edited.chunksWritten).toBe(1);
    expect(edited.chunksReanalysed).toBe(0);
    expect((await unchanged()).key_ids).toEqual(before.key_ids);
    expect(await lists()).toEqual(listsBefore);
  });

  it('analyses the unchanged chunks in the new language, as a fresh index does', async () => {
    const czech = await unchanged();
    const czechKeys = await keysOf(czech.chunk_id);

    fixtures.second = ENGLISH;
    const flipped = await ingest();
    expect(flipped.errors).toEqual([]);
    expect(flipped.chunksWritten).toBe(1);
    expect(flipped.chunksReanalysed).toBe(1);
    const after = await unchanged();
    expect(after).toMatchObject({
      chunk_id: czech.chunk_id,
      lang: 'en',
      page_lang: 'en',
    });
    const keys = await keysOf(after.chunk_id);

    await new DatabaseAskDocsStore(db.knex).deleteEntities([ENTITY_REF]);
    expect((await ingest()).errors).toEqual([]);
    const fresh = await keysOf(after.chunk_id);
    expect(keys).toEqual(fresh);
    // The two analyses of the text differ, so keys kept from the Czech one would show.
    expect(fresh).not.toEqual(czechKeys);
  });
});
