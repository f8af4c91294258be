import path from 'node:path';
import { mockServices } from '@backstage/backend-test-utils';
import type { RerankerSettings } from '../settings';
import { createReranker } from './createReranker';
import { CrossEncoderReranker } from './CrossEncoderReranker';

const SETTINGS: RerankerSettings = {
  model: 'cross-encoder/ms-marco-MiniLM-L-6-v2',
  localModelPath: path.resolve('no-such-model-dir'),
  candidates: 12,
  allowFallback: false,
};

function recordingLogger() {
  const logger = mockServices.logger.mock();
  const lines = () =>
    [...logger.info.mock.calls, ...logger.warn.mock.calls].map(c =>
      String(c[0]),
    );
  return { logger, lines };
}

describe('createReranker', () => {
  it('loads nothing without configuration', async () => {
    const load = jest.fn();
    const { logger, lines } = recordingLogger();
    expect(await createReranker(undefined, logger, load)).toEqual({});
    expect(load).not.toHaveBeenCalled();
    expect(lines()).toEqual([]);
  });

  it('passes the settings to the loader and reports the loaded reranker', async () => {
    const fake = {
      modelId: SETTINGS.model,
      localModelPath: SETTINGS.localModelPath,
      candidates: 12,
    } as CrossEncoderReranker;
    const load = jest.fn(async () => fake);
    const { logger, lines } = recordingLogger();
    const created = await createReranker(
      { ...SETTINGS, maxTokens: 256, batchSize: 4, dtype: 'q8' },
      logger,
      load,
    );
    expect(load).toHaveBeenCalledWith({
      modelId: SETTINGS.model,
      localModelPath: SETTINGS.localModelPath,
      candidates: 12,
      maxTokens: 256,
      batchSize: 4,
      dtype: 'q8',
    });
    expect(created).toEqual({
      reranker: fake,
      info: { modelId: SETTINGS.model, loaded: true, candidates: 12 },
    });
    expect(lines().join('\n')).toMatch(/rescores the top 12 retrieved chunks/);
  });

  it('fails start-up when the configured model cannot be loaded, naming path and key', async () => {
    const { logger } = recordingLogger();
    // The real loader, on a directory that does not exist.
    const attempt = createReranker(SETTINGS, logger);
    await expect(attempt).rejects.toThrow(SETTINGS.localModelPath);
    await expect(attempt).rejects.toThrow(
      /askDocs\.retrieval\.reranker\.localModelPath/,
    );
    await expect(attempt).rejects.toThrow(
      /askDocs\.retrieval\.reranker\.allowFallback is false/,
    );
  });

  it('with allowFallback starts without it, loudly, keeping the reason for /health', async () => {
    const { logger, lines } = recordingLogger();
    const created = await createReranker(
      { ...SETTINGS, allowFallback: true },
      logger,
    );
    expect(created.reranker).toBeUndefined();
    expect(created.info).toEqual({
      modelId: SETTINGS.model,
      loaded: false,
      candidates: 12,
      note: expect.stringMatching(/keep the fused order.*start-up log/),
    });
    // The path and the load error go to the log, not to the public /health.
    expect(created.info!.note).not.toContain(SETTINGS.localModelPath);
    expect(lines().join('\n')).toContain(SETTINGS.localModelPath);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(lines().join('\n')).toMatch(
      /!!! Ask docs reranker: RUNNING WITHOUT/,
    );
  });
});
