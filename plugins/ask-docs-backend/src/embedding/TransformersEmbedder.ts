import fs from 'node:fs';
import path from 'node:path';
import { Embedder } from './types';
import {
  loadTransformers,
  TransformersModel,
  TransformersModule,
  TransformersTensor,
  TransformersTokenizer,
} from './loadTransformers';
import { l2NormalizeInPlace } from './vectorMath';

export const DEFAULT_EMBEDDING_MODEL = 'Xenova/multilingual-e5-small';

/** File-name suffixes transformers.js appends per dtype (onnx/model<suffix>.onnx). */
const DTYPE_SUFFIX: Record<string, string> = {
  fp32: '',
  fp16: '_fp16',
  q8: '_quantized',
  int8: '_int8',
  uint8: '_uint8',
  q4: '_q4',
  q4f16: '_q4f16',
  bnb4: '_bnb4',
};

export interface TransformersEmbedderOptions {
  /** Model id as laid out under localModelPath, e.g. "Xenova/multilingual-e5-small". */
  modelId?: string;
  /** Directory holding `<modelId>/config.json`, `tokenizer.json` and `onnx/model.onnx`. */
  localModelPath: string;
  /** Defaults to "query: " for e5 models, "" otherwise. */
  queryPrefix?: string;
  /** Defaults to "passage: " for e5 models, "" otherwise. */
  passagePrefix?: string;
  batchSize?: number;
  /** Inputs are truncated to this many tokens (including special tokens). */
  maxTokens?: number;
  /** Which ONNX variant to load; fp32 is onnx/model.onnx, q8 is onnx/model_quantized.onnx. */
  dtype?: string;
}

export class EmbeddingModelNotFoundError extends Error {
  readonly name = 'EmbeddingModelNotFoundError';
}

function isE5(modelId: string): boolean {
  return /(^|[\/_-])e5([_-]|$)/i.test(modelId);
}

/** Model loading mutates transformers.js's global env, so loads must not interleave. */
let loadLock: Promise<unknown> = Promise.resolve();
function withLoadLock<T>(fn: () => Promise<T>): Promise<T> {
  const run = loadLock.then(fn, fn);
  loadLock = run.catch(() => undefined);
  return run;
}

function checkModelFiles(
  modelDir: string,
  onnxFile: string,
  modelId: string,
  root: string,
): void {
  // transformers.js fails cryptically without tokenizer_config.json, so it is checked here too.
  const required = [
    'config.json',
    'tokenizer.json',
    'tokenizer_config.json',
    onnxFile,
  ];
  const missing = required.filter(f => !fs.existsSync(path.join(modelDir, f)));
  if (missing.length > 0) {
    throw new EmbeddingModelNotFoundError(
      `Embedding model "${modelId}" not found in local model path "${root}": missing ` +
        `${missing
          .map(f => path.join(modelDir, f))
          .join(', ')}. Remote model downloads are disabled; ` +
        `place the model files (${required.join(', ')}) ` +
        `in "${modelDir}" or set askDocs.embeddings.localModelPath.`,
    );
  }
}

/** Guards the global fetch transformers.js would use, so a mistake can never reach the hub. */
function blockedFetch(url: unknown): Promise<never> {
  return Promise.reject(
    new Error(
      `Network access is disabled for embedding models (attempted to fetch ${String(
        url,
      )})`,
    ),
  );
}

function pickHiddenStates(
  outputs: Record<string, TransformersTensor>,
): TransformersTensor {
  const byName =
    outputs.last_hidden_state ??
    outputs.token_embeddings ??
    outputs.sentence_embedding;
  if (byName) return byName;
  const first = Object.values(outputs).find(
    t => t.dims.length === 3 || t.dims.length === 2,
  );
  if (!first) {
    throw new Error(
      `Embedding model produced no usable output (outputs: ${Object.keys(
        outputs,
      ).join(', ')})`,
    );
  }
  return first;
}

/** Masked mean over tokens, then L2 normalisation; 2-D outputs are already pooled. */
function poolAndNormalize(
  hidden: TransformersTensor,
  mask: TransformersTensor | undefined,
): number[][] {
  const data = hidden.data as ArrayLike<number>;
  if (hidden.dims.length === 2) {
    const [batch, dim] = hidden.dims;
    const rows: number[][] = [];
    for (let b = 0; b < batch; b++) {
      const v = Array.from({ length: dim }, (_, d) =>
        Number(data[b * dim + d]),
      );
      l2NormalizeInPlace(v);
      rows.push(v);
    }
    return rows;
  }
  const [batch, seq, dim] = hidden.dims;
  const rows: number[][] = [];
  for (let b = 0; b < batch; b++) {
    const acc = new Float64Array(dim);
    let count = 0;
    for (let s = 0; s < seq; s++) {
      const m = mask ? Number(mask.data[b * seq + s]) : 1;
      if (!m) continue;
      count += m;
      const base = (b * seq + s) * dim;
      for (let d = 0; d < dim; d++) acc[d] += m * data[base + d];
    }
    if (count > 0) for (let d = 0; d < dim; d++) acc[d] /= count;
    l2NormalizeInPlace(acc);
    rows.push(Array.from(acc));
  }
  return rows;
}

function explainInferenceError(e: unknown): Error {
  const err = e instanceof Error ? e : new Error(String(e));
  if (/tensor's data must be type of/.test(err.message)) {
    err.message +=
      ' (typed arrays from two JavaScript realms; under jest call useNativeTypedArraysForOnnx() ' +
      'from embedding/__testUtils__ before loading the model)';
  }
  return err;
}

/**
 * Local sentence embeddings through transformers.js + onnxruntime-node. Models are only ever read
 * from `localModelPath`; remote downloads are disabled before anything is loaded.
 */
export class TransformersEmbedder implements Embedder {
  readonly kind = 'transformers' as const;
  readonly modelId: string;
  readonly queryPrefix: string;
  readonly passagePrefix: string;
  readonly batchSize: number;
  readonly maxTokens: number;
  readonly localModelPath: string;
  private dim = 0;
  /** Inference runs one batch at a time so concurrent requests do not oversubscribe the CPU. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    options: Required<Omit<TransformersEmbedderOptions, 'dtype'>>,
    private readonly tokenizer: TransformersTokenizer,
    private readonly model: TransformersModel,
  ) {
    this.modelId = options.modelId;
    this.localModelPath = options.localModelPath;
    this.queryPrefix = options.queryPrefix;
    this.passagePrefix = options.passagePrefix;
    this.batchSize = options.batchSize;
    this.maxTokens = options.maxTokens;
  }

  get dimension(): number {
    return this.dim;
  }

  /** Loads tokenizer and ONNX model from disk and probes the output dimension. */
  static async load(
    options: TransformersEmbedderOptions,
  ): Promise<TransformersEmbedder> {
    const modelId = options.modelId ?? DEFAULT_EMBEDDING_MODEL;
    const root = path.resolve(options.localModelPath);
    const dtype = options.dtype ?? 'fp32';
    const suffix = DTYPE_SUFFIX[dtype];
    if (suffix === undefined) {
      throw new Error(
        `Unsupported embedding model dtype "${dtype}"; use one of ${Object.keys(
          DTYPE_SUFFIX,
        ).join(', ')}`,
      );
    }
    const batchSize = options.batchSize ?? 16;
    const maxTokens = options.maxTokens ?? 512;
    if (!Number.isInteger(batchSize) || batchSize < 1)
      throw new Error(`batchSize must be a positive integer, got ${batchSize}`);
    if (!Number.isInteger(maxTokens) || maxTokens < 2)
      throw new Error(`maxTokens must be an integer >= 2, got ${maxTokens}`);

    const modelDir = path.join(root, modelId);
    checkModelFiles(
      modelDir,
      path.join('onnx', `model${suffix}.onnx`),
      modelId,
      root,
    );

    const transformers: TransformersModule = await loadTransformers();
    const { tokenizer, model } = await withLoadLock(async () => {
      const env = transformers.env;
      env.allowRemoteModels = false;
      env.allowLocalModels = true;
      env.localModelPath = root.endsWith(path.sep)
        ? root
        : `${root}${path.sep}`;
      // Caches exist only for downloaded files; never write into node_modules.
      env.useFSCache = false;
      env.useBrowserCache = false;
      env.fetch = blockedFetch;
      const opts = { local_files_only: true };
      return {
        tokenizer: await transformers.AutoTokenizer.from_pretrained(
          modelId,
          opts,
        ),
        model: await transformers.AutoModel.from_pretrained(modelId, {
          ...opts,
          dtype,
          device: 'cpu',
        }),
      };
    });

    const isE5Model = isE5(modelId);
    const embedder = new TransformersEmbedder(
      {
        modelId,
        localModelPath: root,
        queryPrefix: options.queryPrefix ?? (isE5Model ? 'query: ' : ''),
        passagePrefix: options.passagePrefix ?? (isE5Model ? 'passage: ' : ''),
        batchSize,
        maxTokens,
      },
      tokenizer,
      model,
    );
    // The real output width is authoritative; config.json's hidden_size can disagree for
    // models with a projection head.
    const [probe] = await embedder.embedRaw(['dimension probe']);
    embedder.dim = probe.length;
    return embedder;
  }

  async embedPassages(texts: string[]): Promise<number[][]> {
    return this.embedRaw(texts.map(t => this.passagePrefix + t));
  }

  async embedQuery(text: string): Promise<number[]> {
    const [v] = await this.embedRaw([this.queryPrefix + text]);
    return v;
  }

  async dispose(): Promise<void> {
    await this.model.dispose?.();
  }

  private async embedRaw(texts: string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      const batch = texts.slice(i, i + this.batchSize);
      out.push(...(await this.enqueue(() => this.runBatch(batch))));
    }
    return out;
  }

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async runBatch(batch: string[]): Promise<number[][]> {
    const inputs = this.tokenizer(batch, {
      padding: true,
      truncation: true,
      max_length: this.maxTokens,
    });
    let outputs: Record<string, TransformersTensor>;
    try {
      outputs = await this.model(inputs);
    } catch (e) {
      throw explainInferenceError(e);
    }
    return poolAndNormalize(pickHiddenStates(outputs), inputs.attention_mask);
  }
}
