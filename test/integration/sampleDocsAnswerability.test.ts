/*
 * Answerability on the dev portal's sample TechDocs (examples/docs, built with mkdocs as
 * `./run start` builds them): the product's question pipeline answers "Jak nasadit pokladnu?"
 * from the till's deployment page, whose words are "Nasazení", "nasazením", "nasazuje" (the
 * Czech derivation key relates them to the verb across the d/z alternation), and refuses a
 * near-miss about the same product that the pages do not answer.
 */
import { ConfigReader } from '@backstage/config';
import { stringifyEntityRef } from '@backstage/catalog-model';
import fs from 'fs';
import path from 'path';
import { NOT_IN_KNOWLEDGE_BASE_ANSWER } from '@askdocs/plugin-ask-docs-common';
import { ChatModel } from '../../plugins/ask-docs-backend/src/answer';
import { HashingEmbedder } from '../../plugins/ask-docs-backend/src/embedding';
import { resolveVisibility } from '../../plugins/ask-docs-backend/src/permissions';
import { QuestionPipeline } from '../../plugins/ask-docs-backend/src/service/QuestionPipeline';
import { readRetrievalSettings } from '../../plugins/ask-docs-backend/src/settings';
import {
  EvalDatabase,
  evalAnalyzers,
  ingest,
  startEvalDatabase,
} from '../eval/buildIndex';
import {
  FileTechDocsReader,
  fakePermissions,
  userCredentials,
  buildSampleDocs,
} from '../src';
import { KnowledgeIndex } from '../../plugins/ask-docs-backend/src/database/IndexReader';

/** A faithful model: cites the first block it was sent, as the prompt tells it to. */
const citingModel: ChatModel = {
  model: 'cite-first-block',
  async complete(messages) {
    const prompt = messages.map(m => m.content).join('\n');
    const label = /^Cite as: (\[[^\n]+\])$/m.exec(prompt)?.[1];
    return label ? `Podle dokumentace. ${label}` : 'NOT_IN_DOCUMENTS';
  },
};

describe('answerability on the sample docs (hashing embedder, default evidence decision)', () => {
  let db: EvalDatabase;
  let publishDir: string;
  let pipeline: QuestionPipeline;
  let ask: (question: string) => ReturnType<QuestionPipeline['run']>;
  let modelCalls = 0;

  beforeAll(async () => {
    const sample = buildSampleDocs('ask-docs-samples-');
    publishDir = sample.publishDir;
    const entities = sample.entities;
    const reader = new FileTechDocsReader();
    for (const e of entities) {
      const dir = path.join(
        publishDir,
        'default',
        'component',
        e.metadata.name,
      );
      if (fs.existsSync(dir))
        reader.add(stringifyEntityRef(e), {
          dir,
          siteName: e.metadata.title ?? e.metadata.name,
        });
    }
    db = await startEvalDatabase();
    const analyzers = await evalAnalyzers();
    const embedder = new HashingEmbedder({ analyzers });
    // Ingestion and the pipeline share the database, embedder and analysers.
    const index = { knex: db.knex, embedder, analyzers };
    const progress = await ingest({ ...index, entities, techdocs: reader });
    expect(progress.errors).toEqual([]);
    const retrieval = readRetrievalSettings(new ConfigReader({}), embedder);
    const counted: ChatModel = {
      model: citingModel.model,
      complete: (...args) => ((modelCalls += 1), citingModel.complete(...args)),
    };
    pipeline = new QuestionPipeline({
      ...index,
      index: new KnowledgeIndex(db.knex),
      model: counted,
      retrieval,
      answer: {},
    });
    const visibility = await resolveVisibility({
      permissions: fakePermissions({}),
      credentials: userCredentials(),
    });
    ask = question => pipeline.run(pipeline.analyse(question), visibility);
  }, 240_000);

  afterAll(async () => {
    await db?.stop();
    if (publishDir) fs.rmSync(publishDir, { recursive: true, force: true });
  });

  beforeEach(() => {
    modelCalls = 0;
  });

  it('answers how to deploy the till, citing its deployment page', async () => {
    const { retrieval, result } = await ask('Jak nasadit pokladnu?');
    // The default decision for this embedder is the fitted model: it gives a probability.
    expect(retrieval.evidence?.probability).toEqual(expect.any(Number));
    expect(retrieval.chunks.length).toBeGreaterThan(0);
    // The deployment page ranks first: it is the block the model is sent first and cites.
    expect(retrieval.chunks[0].url).toMatch(
      /\/component\/pokladna\/nasazeni\/?(#|$)/,
    );
    expect(result.status).toBe('answered');
    expect(result.sources.map(s => s.title)).toEqual(['Nasazení']);
    expect(result.sources[0].url).toMatch(/\/pokladna\/nasazeni\//);
    expect(modelCalls).toBe(1);
  });

  it('refuses a near-miss about the same product without calling the model', async () => {
    // Pokladna's pages say nothing about licence prices: only the product name matches.
    const { retrieval, result } = await ask(
      'Kolik stojí licence pokladny pro jednu prodejnu?',
    );
    expect(retrieval.chunks).toEqual([]);
    expect(retrieval.evidence?.answered).toBe(false);
    expect(result.status).toBe('not_in_knowledge_base');
    expect(result.answer).toBe(NOT_IN_KNOWLEDGE_BASE_ANSWER);
    expect(modelCalls).toBe(0);
  });
});
