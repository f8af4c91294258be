import { Embedder } from './types';
import {
  TransformersModel,
  TransformersTensor,
  TransformersTokenizer,
} from './loadTransformers';
import {
  checkBatchOptions,
  explainInferenceError,
  InferenceQueue,
  loadLocalModel,
} from './localModel';
import { l2NormalizeInPlace } from './vectorMath';

export const DEFAULT_EMBEDDING_MODEL = 'Xenova/multilingual-e5-small';

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
  private readonly queue = new InferenceQueue();

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
    const batchSize = options.batchSize ?? 16;
    const maxTokens = options.maxTokens ?? 512;
    checkBatchOptions(batchSize, maxTokens);
    const { tokenizer, model, root } = await loadLocalModel({
      modelId,
      localModelPath: options.localModelPath,
      dtype: options.dtype,
      what: 'Embedding model',
      pathKey: 'askDocs.embeddings.localModelPath',
      notFound: message => new EmbeddingModelNotFoundError(message),
      loadModel: (t, id, opts) => t.AutoModel.from_pretrained(id, opts),
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
    // Someone waits for it: ahead of an ingestion run's queued passages.
    const [v] = await this.embedRaw([this.queryPrefix + text], true);
    return v;
  }

  async dispose(): Promise<void> {
    await this.model.dispose?.();
  }

  private async embedRaw(texts: string[], urgent = false): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      const batch = texts.slice(i, i + this.batchSize);
      out.push(
        ...(await this.queue.run(() => this.runBatch(batch), { urgent })),
      );
    }
    return out;
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
