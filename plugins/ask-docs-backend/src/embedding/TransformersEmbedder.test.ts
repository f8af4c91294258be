import fs from 'node:fs/promises';
import path from 'node:path';
import {
  buildTinyBertModel,
  TinyBertModel,
} from './__testUtils__/buildTinyBertModel';
import { useLocalModelTestDir } from './__testUtils__/localModelTestDir';
import {
  EmbeddingModelNotFoundError,
  TransformersEmbedder,
} from './TransformersEmbedder';
import { loadTransformers } from './loadTransformers';
import { dot } from './vectorMath';

const norm = (v: number[]) => Math.sqrt(dot(v, v));

describe('TransformersEmbedder', () => {
  let tiny: TinyBertModel;
  const modelDir = useLocalModelTestDir('ask-docs-embedding-', async dir => {
    tiny = await buildTinyBertModel(dir);
  });

  const load = (
    extra: Partial<Parameters<typeof TransformersEmbedder.load>[0]> = {},
  ) =>
    TransformersEmbedder.load({
      modelId: tiny.modelId,
      localModelPath: modelDir(),
      ...extra,
    });

  it('loads the hand-built model through transformers.js with remote models disabled', async () => {
    const e = await load();
    expect(e.kind).toBe('transformers');
    expect(e.modelId).toBe('test/tiny-bert');
    expect(e.dimension).toBe(16);
    expect(e.localModelPath).toBe(path.resolve(modelDir()));

    const { env } = await loadTransformers();
    expect(env.allowRemoteModels).toBe(false);
    expect(path.resolve(env.localModelPath)).toBe(path.resolve(modelDir()));
    await expect(env.fetch('https://huggingface.co/x')).rejects.toThrow(
      /Network access is disabled/,
    );
  });

  it('reads the dimension from the model output', async () => {
    const wide = await buildTinyBertModel(modelDir(), {
      modelId: 'test/tiny-bert-24',
      dimension: 24,
    });
    const e = await load({ modelId: wide.modelId });
    expect(e.dimension).toBe(24);
    expect(await e.embedQuery('deploy')).toHaveLength(24);
  });

  it('returns unit vectors, identical for identical text', async () => {
    const e = await load();
    const texts = [
      'how do i deploy the service to production',
      'database backup',
      'cat',
      '',
    ];
    const vs = await e.embedPassages(texts);
    expect(vs).toHaveLength(4);
    for (const v of vs) {
      expect(v).toHaveLength(16);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect((await e.embedPassages(['database backup']))[0]).toEqual(vs[1]);
    expect(await e.embedQuery('cat')).toEqual(await e.embedQuery('cat'));
  });

  it('gives different texts different vectors', async () => {
    const e = await load();
    const [a, b, c] = await e.embedPassages([
      'database backup',
      'weather is sunny today',
      'cat',
    ]);
    expect(dot(a, b)).toBeLessThan(0.99);
    expect(dot(a, c)).toBeLessThan(0.99);
    expect(dot(b, c)).toBeLessThan(0.99);
  });

  it('pads batches without changing results', async () => {
    const e = await load({ batchSize: 2 });
    const texts = [
      'cat',
      'how do i configure logging',
      'dog',
      'database backup restore',
      'x y z',
    ];
    const batched = await e.embedPassages(texts);
    for (let i = 0; i < texts.length; i++) {
      const [single] = await e.embedPassages([texts[i]]);
      single.forEach((x, d) => expect(batched[i][d]).toBeCloseTo(x, 5));
    }
  });

  it('applies the query and passage prefixes', async () => {
    const prefixed = await load({
      queryPrefix: 'query: ',
      passagePrefix: 'passage: ',
    });
    const raw = await load({ queryPrefix: '', passagePrefix: '' });
    const text = 'how do i deploy the service';

    const q = await prefixed.embedQuery(text);
    const [p] = await prefixed.embedPassages([text]);
    const [rawQueryPrefixed, rawPassagePrefixed, rawPlain] =
      await raw.embedPassages([`query: ${text}`, `passage: ${text}`, text]);
    q.forEach((x, d) => expect(rawQueryPrefixed[d]).toBeCloseTo(x, 5));
    p.forEach((x, d) => expect(rawPassagePrefixed[d]).toBeCloseTo(x, 5));
    expect(dot(q, rawPlain)).toBeLessThan(0.999);
    expect(dot(q, p)).toBeLessThan(0.999);
  });

  it('defaults to e5 prefixes only for e5 models', async () => {
    const e5 = await buildTinyBertModel(modelDir(), {
      modelId: 'test/multilingual-e5-tiny',
    });
    const withE5 = await load({ modelId: e5.modelId });
    expect(withE5.queryPrefix).toBe('query: ');
    expect(withE5.passagePrefix).toBe('passage: ');
    const plain = await load();
    expect(plain.queryPrefix).toBe('');
    expect(plain.passagePrefix).toBe('');
    // "e5" inside a longer word is not an e5 model.
    const other = await buildTinyBertModel(modelDir(), {
      modelId: 'test/tree5-bert',
    });
    expect((await load({ modelId: other.modelId })).queryPrefix).toBe('');
  });

  it('truncates inputs to maxTokens', async () => {
    const short = await load({ maxTokens: 6 });
    const long = await load();
    // transformers.js keeps the first 6 tokens ([CLS] + 5 words); the rest is cut off.
    const a = 'a b c d e f g h';
    const b = 'a b c d e x y z';
    expect(await short.embedQuery(a)).toEqual(await short.embedQuery(b));
    expect(
      dot(await long.embedQuery(a), await long.embedQuery(b)),
    ).toBeLessThan(0.999);
  });

  it('names the path when the model directory is missing', async () => {
    const missing = path.join(modelDir(), 'no-such-dir');
    const attempt = TransformersEmbedder.load({
      modelId: 'Xenova/multilingual-e5-small',
      localModelPath: missing,
    });
    await expect(attempt).rejects.toBeInstanceOf(EmbeddingModelNotFoundError);
    await expect(attempt).rejects.toThrow(missing);
    await expect(attempt).rejects.toThrow(/Xenova\/multilingual-e5-small/);
  });

  it('names the missing ONNX file when only part of the model is present', async () => {
    const partial = await buildTinyBertModel(modelDir(), {
      modelId: 'test/partial',
    });
    await fs.rm(path.join(partial.modelDir, 'onnx', 'model.onnx'));
    await expect(load({ modelId: partial.modelId })).rejects.toThrow(
      path.join(partial.modelDir, 'onnx', 'model.onnx'),
    );
    // A quantised variant is looked up under its own file name.
    await expect(load({ dtype: 'q8' })).rejects.toThrow(
      /model_quantized\.onnx/,
    );
    await expect(load({ dtype: 'float7' })).rejects.toThrow(
      /Unsupported embedding model dtype/,
    );
  });

  it('reports a missing tokenizer file instead of fetching it', async () => {
    const partial = await buildTinyBertModel(modelDir(), {
      modelId: 'test/no-tokenizer-config',
    });
    await fs.rm(path.join(partial.modelDir, 'tokenizer_config.json'));
    // No fetch either (checked in afterEach).
    await expect(load({ modelId: partial.modelId })).rejects.toThrow(
      path.join(partial.modelDir, 'tokenizer_config.json'),
    );
  });

  it('rejects invalid batch and truncation settings', async () => {
    await expect(load({ batchSize: 0 })).rejects.toThrow(/batchSize/);
    await expect(load({ maxTokens: 1 })).rejects.toThrow(/maxTokens/);
  });

  it('fails clearly on a corrupt model file', async () => {
    const broken = await buildTinyBertModel(modelDir(), {
      modelId: 'test/broken',
    });
    await fs.writeFile(
      path.join(broken.modelDir, 'onnx', 'model.onnx'),
      'not a protobuf',
    );
    await expect(load({ modelId: broken.modelId })).rejects.toThrow();
  });
});
