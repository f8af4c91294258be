/*
 * The language guarantees hold through keyword retrieval too, including its prefix fallback:
 * psa finds pes, dne finds den, lišce finds liška; Pavlovi does not find pavlač, pes not pesto.
 */
import { analyzeText, Analyzers, createLanguageAnalyzers } from '../language';
import { Visibility } from '../permissions';
import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import { keywordSearch, QueryToken } from './keywordSearch';
import { fakeVisibility } from '../testUtils/fakeVisibility';
import { seedIndex } from './testUtils/seed';
import { prepareQuestion } from '../service/prepareQuestion';
import { IndexReader } from '../database/IndexReader';

describe('morphology through keyword retrieval', () => {
  let db: TestDatabase;
  let analyzers: Analyzers;
  let visibility: Visibility;
  let ids: Record<string, string[]>;

  const texts: Record<string, string> = {
    dog: 'Pes smí do kanceláře, pokud je očkovaný.',
    day: 'Nasazení probíhá jeden den v týdnu.',
    fox: 'Liška obecná žije v lese.',
    balcony: 'Pavlač vede kolem celého domu.',
    pesto: 'Pesto se dělá z bazalky.',
    run: 'Running the migration twice is safe.',
    mouse: 'The mouse pointer changes over links.',
  };

  const termsOf = (text: string, lang: string) => {
    const grouped: Partial<Record<'l' | 's' | 'w', string[]>> = {
      l: [],
      s: [],
      w: [],
    };
    for (const t of analyzeText(text, lang, analyzers).terms)
      grouped[t.kind]!.push(t.term);
    return grouped;
  };
  const query = (q: string): QueryToken[] =>
    prepareQuestion(q, analyzers).queryTokens;
  const found = async (q: string) => {
    const { hits } = await keywordSearch({
      reader: new IndexReader(db.knex, visibility),
      queryTokens: query(q),
      limit: 10,
    });
    return Object.keys(ids).filter(name =>
      hits.some(h => ids[name].includes(h.chunkId)),
    );
  };

  beforeAll(async () => {
    db = await startTestDatabase();
    analyzers = await createLanguageAnalyzers({ languages: ['en', 'cs'] });
    ids = await seedIndex(db.knex, {
      entities: [{ entityRef: 'component:default/docs' }],
      documents: Object.entries(texts).map(([name, text]) => ({
        documentId: name,
        entityRef: 'component:default/docs',
        title: name,
        chunks: [
          {
            text,
            terms: termsOf(text, ['run', 'mouse'].includes(name) ? 'en' : 'cs'),
          },
        ],
      })),
    }).then(byDoc => byDoc);
    visibility = await fakeVisibility();
  });
  afterAll(async () => {
    await db?.stop();
  });

  it.each([
    ['psa', 'dog'],
    ['dne', 'day'],
    ['lišce', 'fox'],
    ['runs', 'run'],
    ['mice', 'mouse'],
  ])('%s finds the %s document', async (q, doc) => {
    expect(await found(q)).toEqual([doc]);
  });

  it.each([
    ['Pavlovi', 'balcony'],
    ['pes', 'pesto'],
    ['psovi', 'pesto'],
  ])('%s does not find the %s document', async (q, doc) => {
    expect(await found(q)).not.toContain(doc);
  });
});
