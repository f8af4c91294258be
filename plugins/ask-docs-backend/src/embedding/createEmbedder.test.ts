import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { mockServices } from '@backstage/backend-test-utils';
import { JsonObject } from '@backstage/types';
import { buildTinyBertModel } from './__testUtils__/buildTinyBertModel';
import { useNativeTypedArraysForOnnx } from './__testUtils__/useNativeTypedArraysForOnnx';
import { createEmbedder } from './createEmbedder';
import { readAskDocsConfig } from '../settings';
import { createLanguageAnalyzers } from '../language';
import { HashingEmbedder } from './HashingEmbedder';
import { TransformersEmbedder } from './TransformersEmbedder';
import { embedderInfo } from './types';

const configWith = (embeddings: JsonObject | undefined) =>
  readAskDocsConfig(
    mockServices.rootConfig({
      data: embeddings ? { askDocs: { embeddings } } : {},
    }),
  ).embeddings;
const readEmbeddingSettings = (settings: ReturnType<typeof configWith>) =>
  settings;

describe('createEmbedder', () => {
  let dir: string;

  beforeAll(async () => {
    useNativeTypedArraysForOnnx();
    dir = await fs.mkdtemp(
      path.join(os.tmpdir(), 'ask-docs-embedder-factory-'),
    );
    await buildTinyBertModel(dir, { modelId: 'test/tiny-bert', dimension: 12 });
  });

  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('builds the configured hashing embedder without calling it a fallback', async () => {
    const logger = mockServices.logger.mock();
    const e = await createEmbedder(
      configWith({ provider: 'hashing', dimension: 256 }),
      logger,
    );
    expect(e).toBeInstanceOf(HashingEmbedder);
    expect(e.dimension).toBe(256);
    expect(e.fallbackReason).toBeUndefined();
    expect(logger.warn).not.toHaveBeenCalled();
    const info = embedderInfo(e);
    expect(info).toMatchObject({
      modelId: 'hashing-fallback-v1-256',
      kind: 'hashing-fallback',
      dimension: 256,
    });
    expect(info.note).toMatch(/configured/);
    expect(info.note).not.toMatch(/instead of a semantic model/);
  });

  it(`passes the language analyzers to the hashing embedder, configured or as fallback \
(v2)`, async () => {
    const analyzers = await createLanguageAnalyzers({
      languages: ['en', 'cs'],
      onMissingDictionary: 'stem-only',
    });
    const configured = await createEmbedder(
      configWith({ provider: 'hashing' }),
      mockServices.logger.mock(),
      { analyzers },
    );
    expect(configured.modelId).toBe('hashing-fallback-v2-en+cs-384');
    const fallback = await createEmbedder(
      configWith({
        model: 'missing/model',
        localModelPath: path.join(dir, 'nowhere'),
      }),
      mockServices.logger.mock(),
      { analyzers },
    );
    expect(fallback.modelId).toBe('hashing-fallback-v2-en+cs-384');
    expect(fallback.fallbackReason).toMatch(/missing\/model/);
  });

  it('loads a local transformers model with the configured options', async () => {
    const logger = mockServices.logger.mock();
    const e = await createEmbedder(
      configWith({
        provider: 'transformers',
        model: 'test/tiny-bert',
        localModelPath: dir,
        queryPrefix: 'query: ',
        passagePrefix: '',
        batchSize: 3,
        maxTokens: 32,
        allowFallback: false,
      }),
      logger,
    );
    expect(e).toBeInstanceOf(TransformersEmbedder);
    const t = e as TransformersEmbedder;
    expect([t.queryPrefix, t.passagePrefix, t.batchSize, t.maxTokens]).toEqual([
      'query: ',
      '',
      3,
      32,
    ]);
    expect(embedderInfo(e)).toEqual({
      modelId: 'test/tiny-bert',
      kind: 'transformers',
      dimension: 12,
    });
    expect(logger.warn).not.toHaveBeenCalled();
    expect(await e.embedQuery('deploy')).toHaveLength(12);
  });

  it('falls back loudly to hashing when the model is missing, and says why', async () => {
    const logger = mockServices.logger.mock();
    const missing = path.join(dir, 'absent');
    const e = await createEmbedder(
      configWith({
        provider: 'transformers',
        localModelPath: missing,
        dimension: 128,
      }),
      logger,
    );
    expect(e).toBeInstanceOf(HashingEmbedder);
    expect(e.kind).toBe('hashing-fallback');
    expect(e.dimension).toBe(128);
    expect(e.fallbackReason).toContain('Xenova/multilingual-e5-small');
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0][0]).toMatch(/FALLING BACK/);
    // The path and the load error go to the log, not to the public /health.
    expect(logger.warn.mock.calls[0][0]).toContain(missing);
    expect(embedderInfo(e).note).toMatch(
      /instead of a semantic model: could not load .*start-up log/,
    );
    expect(embedderInfo(e).note).not.toContain(missing);
  });

  it('refuses to fall back when allowFallback is false', async () => {
    const logger = mockServices.logger.mock();
    const missing = path.join(dir, 'absent');
    await expect(
      createEmbedder(
        configWith({
          provider: 'transformers',
          localModelPath: missing,
          allowFallback: false,
        }),
        logger,
      ),
    ).rejects.toThrow(missing);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('never loads a model from outside localModelPath', async () => {
    // A real model beside the directory: reachable only by leaving it.
    const inside = path.join(dir, 'inside');
    await fs.mkdir(inside);
    for (const model of [
      '../test/tiny-bert',
      path.join(dir, 'test/tiny-bert'),
    ]) {
      await expect(
        createEmbedder(
          configWith({
            provider: 'transformers',
            localModelPath: inside,
            model,
            allowFallback: false,
          }),
          mockServices.logger.mock(),
        ),
      ).rejects.toThrow(/is not a folder under .*inside/);
    }
  });

  it('rejects a non-string prefix', async () => {
    expect(() => readEmbeddingSettings(configWith({ queryPrefix: 3 }))).toThrow(
      /queryPrefix/,
    );
  });

  it('rejects an unknown provider instead of silently falling back', async () => {
    const logger = mockServices.logger.mock();
    // Refused when config is read at start, before any embedder is built.
    expect(() => configWith({ provider: 'openai' })).toThrow(
      /provider "openai"/,
    );
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('uses the labelled hashing embedder when no model directory is configured', async () => {
    const logger = mockServices.logger.mock();
    const embedder = await createEmbedder(configWith(undefined), logger);
    expect(embedder.kind).toBe('hashing-fallback');
    expect(embedderInfo(embedder).note).toMatch(
      /no embedding model configured/,
    );
  });

  it('defaults to the e5 transformers model under ./models when transformers is chosen', () => {
    const s = readEmbeddingSettings(configWith({ provider: 'transformers' }));
    expect(s).toMatchObject({
      provider: 'transformers',
      model: 'Xenova/multilingual-e5-small',
      localModelPath: path.resolve('models'),
      dimension: 384,
      allowFallback: true,
    });
    expect(s.queryPrefix).toBeUndefined();
  });
});
