import fs from 'node:fs/promises';
import path from 'node:path';
import { buildTinyBertModel } from './__testUtils__/buildTinyBertModel';
import { useLocalModelTestDir } from './__testUtils__/localModelTestDir';
import {
  CrossEncoderReranker,
  CrossEncoderRerankerOptions,
  pairScores,
  RerankerModelNotFoundError,
} from './CrossEncoderReranker';
import { loadTransformers } from './loadTransformers';
import { rerankChunks } from '../retrieval/rerank';
import type { RankedChunk } from '../retrieval/retriever';

const MODEL = 'test/tiny-cross-encoder';

/**
 * The tiny cross-encoder's score, computed here from the words alone: question-passage pairs of
 * equal words (every word below is in its vocabulary, one token each), plus one for the
 * [SEP] pair (the question's separator and the passage's closing one), plus the bias.
 */
function expectedScore(question: string, passage: string, bias = 0): number {
  const counts = (t: string) => {
    const m = new Map<string, number>();
    for (const w of t.toLowerCase().split(/\s+/).filter(Boolean))
      m.set(w, (m.get(w) ?? 0) + 1);
    return m;
  };
  const p = counts(passage);
  let n = 1 + bias;
  for (const [w, c] of counts(question)) n += c * (p.get(w) ?? 0);
  return n;
}

const QUESTION = 'database backup restore';
const PASSAGES = [
  'cat dog weather',
  'database backup',
  'restore the database backup database',
  'configure logging',
  'backup',
];

describe('CrossEncoderReranker', () => {
  const modelDir = useLocalModelTestDir('ask-docs-reranker-', dir =>
    buildTinyBertModel(dir, { modelId: MODEL, crossEncoder: { bias: 0.25 } }),
  );

  const load = (extra: Partial<CrossEncoderRerankerOptions> = {}) =>
    CrossEncoderReranker.load({
      modelId: MODEL,
      localModelPath: modelDir(),
      ...extra,
    });

  it(`loads a sequence-classification model from the local directory, remote \
disabled`, async () => {
    const r = await load({ candidates: 7 });
    expect(r.modelId).toBe(MODEL);
    expect(r.candidates).toBe(7);
    expect(r.localModelPath).toBe(path.resolve(modelDir()));
    const { env } = await loadTransformers();
    expect(env.allowRemoteModels).toBe(false);
    await expect(env.fetch('https://huggingface.co/x')).rejects.toThrow(
      /Network access is disabled/,
    );
  });

  it("scores each pair with the model's logit, question first and passage second", async () => {
    const r = await load();
    const scores = await r.score(QUESTION, PASSAGES);
    expect(scores).toHaveLength(PASSAGES.length);
    scores.forEach((s, i) =>
      expect(s).toBeCloseTo(expectedScore(QUESTION, PASSAGES[i], 0.25), 5),
    );
    // A question word the passage lacks adds nothing: only the separator pair and the bias.
    expect(await r.score('cat', ['database'])).toEqual([
      expect.closeTo(1.25, 5),
    ]);
  });

  it('reads the relevant class of a two-label head as its log-odds', async () => {
    await buildTinyBertModel(modelDir(), {
      modelId: 'test/tiny-cross-encoder-2',
      crossEncoder: { labels: 2, bias: 0.25 },
    });
    const two = await load({ modelId: 'test/tiny-cross-encoder-2' });
    const scores = await two.score(QUESTION, PASSAGES);
    scores.forEach((s, i) =>
      expect(s).toBeCloseTo(expectedScore(QUESTION, PASSAGES[i], 0.25), 5),
    );
  });

  it('gives the same scores in batches of any size (padding is masked)', async () => {
    const batched = await (
      await load({ batchSize: 2 })
    ).score(QUESTION, PASSAGES);
    const whole = await (
      await load({ batchSize: 16 })
    ).score(QUESTION, PASSAGES);
    batched.forEach((s, i) => expect(s).toBeCloseTo(whole[i], 5));
  });

  it(`cuts the passage, never the question or the closing separator, to fit \
maxTokens`, async () => {
    // [CLS] backup [SEP] + passage + [SEP]: 4 + passage tokens; 7 leaves 3 passage words.
    const r = await load({ maxTokens: 7 });
    const [cut, whole] = await r.score('backup', [
      'cat dog weather x backup backup',
      'backup backup cat',
    ]);
    // Only "cat dog weather" is left of the first; the closing [SEP] still counts.
    expect(cut).toBeCloseTo(
      expectedScore('backup', 'cat dog weather', 0.25),
      5,
    );
    expect(whole).toBeCloseTo(
      expectedScore('backup', 'backup backup cat', 0.25),
      5,
    );
    // The same pair untruncated scores the two later backups.
    const [long] = await (
      await load()
    ).score('backup', ['cat dog weather x backup backup']);
    expect(long).toBeCloseTo(cut + 2, 5);
  });

  it('names the path and the config key when the model directory is missing', async () => {
    const missing = path.join(modelDir(), 'no-such-dir');
    const attempt = CrossEncoderReranker.load({
      modelId: 'cross-encoder/ms-marco-MiniLM-L-6-v2',
      localModelPath: missing,
    });
    await expect(attempt).rejects.toBeInstanceOf(RerankerModelNotFoundError);
    await expect(attempt).rejects.toThrow(missing);
    await expect(attempt).rejects.toThrow(
      /askDocs\.retrieval\.reranker\.localModelPath/,
    );
    await expect(attempt).rejects.toThrow(/Reranker model "cross-encoder/);
  });

  it('refuses at load a model without a usable classification head', async () => {
    // An encoder (last_hidden_state, no logits) configured as a reranker.
    const encoder = await buildTinyBertModel(modelDir(), {
      modelId: 'test/encoder',
    });
    await expect(load({ modelId: encoder.modelId })).rejects.toThrow(
      /no "logits".*sequence-classification/,
    );
    const three = await buildTinyBertModel(modelDir(), {
      modelId: 'test/three-labels',
      crossEncoder: { labels: 3 },
    });
    await expect(load({ modelId: three.modelId })).rejects.toThrow(
      /shape \[1, 3\] for 1 pairs; expected \[pairs, 1\]/,
    );
    const broken = await buildTinyBertModel(modelDir(), {
      modelId: 'test/broken-cross-encoder',
      crossEncoder: {},
    });
    await fs.writeFile(
      path.join(broken.modelDir, 'onnx', 'model.onnx'),
      'not a protobuf',
    );
    await expect(load({ modelId: broken.modelId })).rejects.toThrow();
  });

  it('rejects invalid candidates, batch and truncation settings', async () => {
    await expect(load({ candidates: 0 })).rejects.toThrow(/candidates/);
    await expect(load({ batchSize: 0 })).rejects.toThrow(/batchSize/);
    await expect(load({ maxTokens: 1 })).rejects.toThrow(/maxTokens/);
    await expect(load({ dtype: 'float7' })).rejects.toThrow(
      /Unsupported reranker model dtype/,
    );
  });

  it(`orders retrieved chunks by its scores, and a runtime failure keeps the fused \
order`, async () => {
    const r = await load({ candidates: 4 });
    const chunks = PASSAGES.map(
      (text, i): RankedChunk =>
        ({
          chunkId: `c${i}`,
          title: 'Ops',
          sectionPath: '',
          text,
          rrf: 1 - i / 10,
          rank: i + 1,
        } as RankedChunk),
    );
    const warned: Error[] = [];
    const { chunks: ordered, record } = await rerankChunks(
      chunks,
      QUESTION,
      r,
      10,
      e => warned.push(e),
    );
    // The top 4 by the expected scores (5.25, 3.25, 1.25, 1.25: the tie keeps the fused order),
    // then c4, which was not rescored, below them although its own score would be higher.
    expect(ordered.map(c => c.chunkId)).toEqual(['c2', 'c1', 'c0', 'c3', 'c4']);
    expect(ordered.map(c => c.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(record.status).toBe('reranked');
    expect(warned).toEqual([]);

    await r.dispose();
    // onnxruntime logs the failed run itself; the fallback is what is asserted.
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => {});
    const failed = await rerankChunks(chunks, QUESTION, r, 10, e =>
      warned.push(e),
    );
    quiet.mockRestore();
    expect(failed.record.status).toBe('failed');
    expect(failed.chunks.map(c => c.chunkId)).toEqual(
      chunks.map(c => c.chunkId),
    );
    expect(warned).toHaveLength(1);
  });
});

describe('pairScores', () => {
  it('reads one logit per pair, or the difference of two', () => {
    expect(pairScores({ dims: [2, 1], data: [0.5, -1] }, 2)).toEqual([0.5, -1]);
    expect(pairScores({ dims: [2, 2], data: [1, 3, 2, 0] }, 2)).toEqual([
      2, -2,
    ]);
  });

  it('refuses other shapes', () => {
    expect(() => pairScores({ dims: [2, 1], data: [0, 0] }, 3)).toThrow(
      /for 3 pairs/,
    );
    expect(() => pairScores({ dims: [2], data: [0, 0] }, 2)).toThrow(/shape/);
  });
});
