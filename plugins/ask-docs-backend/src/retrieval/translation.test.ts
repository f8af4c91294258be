import fs from 'fs';
import os from 'os';
import path from 'path';
import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import { fakeVisibility } from '../testUtils/fakeVisibility';
import { writeDictd } from '../testUtils/dictd';
import { Visibility } from '../permissions/visibility';
import { IndexReader } from '../database/IndexReader';
import { createLanguageAnalyzers } from '../language';
import { prepareQuestion } from '../service/prepareQuestion';
import { seedIndex } from './testUtils/seed';
import { retrieve } from './retriever';

// A question in Czech about an English page reaches it through a bilingual dictionary only: the
// translations are keys of the question's words (prepareQuestion), retrieval is unchanged.
let db: TestDatabase;
let everyone: Visibility;
let dir: string;

beforeAll(async () => {
  db = await startTestDatabase();
  // The seed's keys are the chunks' lowercase words, as the English analyzer keys these.
  await seedIndex(db.knex, {
    entities: [{ entityRef: 'component:default/manual' }],
    documents: [
      {
        entityRef: 'component:default/manual',
        title: 'Printing',
        chunks: [
          { chunkId: 'print', text: 'crop marks for printing the image' },
          { chunkId: 'canvas', text: 'the canvas size of the image' },
        ],
      },
    ],
  });
  everyone = await fakeVisibility({ chunk: 'ALLOW' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'translate-'));
}, 120_000);

afterAll(async () => {
  await db?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function ask(question: string, entries?: string[]) {
  const analyzers = await createLanguageAnalyzers({
    languages: ['en', 'cs'],
    ...(entries
      ? {
          bilingualDictionary: {
            path: writeDictd(fs.mkdtempSync(path.join(dir, 'd-')), entries),
            from: 'en',
            to: 'cs',
          },
        }
      : {}),
  });
  const result = await retrieve({
    reader: new IndexReader(db.knex, everyone),
    modelId: 'none',
    queryTokens: prepareQuestion(question, analyzers).queryTokens,
    mode: 'keyword',
    k: 10,
    thresholds: { minSimilarity: -1, minCoverage: 0 },
  });
  return result.chunks.map(c => ({ id: c.chunkId, coverage: c.coverage }));
}

describe('a question in the other language, with a bilingual dictionary', () => {
  const DICTIONARY = ['printing <n>\ntisk', 'marks <n>\nznačka'];

  it('finds the English page for Czech words only through their translations', async () => {
    // "tisk" → printing, "značky" (lemma značka) → marks: both words covered.
    expect(await ask('značky pro tisk', DICTIONARY)).toEqual([
      { id: 'print', coverage: 1 },
    ]);
    expect(await ask('značky pro tisk')).toEqual([]);
  });

  it('translates only what the dictionary has: other words stay uncovered', async () => {
    // "plátno" (canvas) is not in the dictionary: the page covers only "tisk", and the canvas
    // page is not found; with its entry it is.
    const [hit, ...rest] = await ask('tisk plátna', DICTIONARY);
    expect(hit.id).toBe('print');
    expect(hit.coverage).toBeGreaterThan(0);
    expect(hit.coverage).toBeLessThan(1);
    expect(rest).toEqual([]);
    const withCanvas = await ask('tisk plátna', [
      ...DICTIONARY,
      'canvas <n>\nplátno',
    ]);
    expect(withCanvas.map(h => h.id).sort()).toEqual(['canvas', 'print']);
  });
});
