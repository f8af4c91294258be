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
import { DEFAULT_RERANK_CANDIDATES, Reranker } from './reranker';

export interface CrossEncoderRerankerOptions {
  /** Model id as laid out under localModelPath, e.g. "Xenova/ms-marco-MiniLM-L-6-v2". */
  modelId: string;
  /** Directory holding `<modelId>/config.json`, `tokenizer.json` and `onnx/model.onnx`. */
  localModelPath: string;
  /** Top fused chunks rescored per question (default DEFAULT_RERANK_CANDIDATES). */
  candidates?: number;
  /** Tokens per pair, special tokens included; the passage is cut to fit (default 512). */
  maxTokens?: number;
  /** Pairs per model call (default 8). */
  batchSize?: number;
  /** Which ONNX variant to load; fp32 is onnx/model.onnx, q8 is onnx/model_quantized.onnx. */
  dtype?: string;
}

export class RerankerModelNotFoundError extends Error {
  readonly name = 'RerankerModelNotFoundError';
}

/**
 * One relevance score per pair from a classification head: the logit of a one-label head, or
 * the log-odds of the second ("relevant") class of a two-label head, which orders pairs as that
 * class's probability does.
 */
export function pairScores(
  logits: TransformersTensor,
  pairs: number,
): number[] {
  const [rows, labels] = logits.dims;
  if (logits.dims.length !== 2 || rows !== pairs || !(labels <= 2)) {
    throw new Error(
      `Reranker output "logits" has shape [${logits.dims.join(
        ', ',
      )}] for ${pairs} pairs; ` +
        'expected [pairs, 1] (a relevance score) or [pairs, 2] (not relevant, relevant)',
    );
  }
  const data = logits.data;
  return Array.from({ length: rows }, (_, i) =>
    labels === 1
      ? Number(data[i])
      : Number(data[i * 2 + 1]) - Number(data[i * 2]),
  );
}

/**
 * A local cross-encoder through transformers.js + onnxruntime-node
 * (AutoModelForSequenceClassification), loaded like the embedder: from `localModelPath` only,
 * remote downloads disabled.
 */
export class CrossEncoderReranker implements Reranker {
  readonly modelId: string;
  readonly localModelPath: string;
  readonly candidates: number;
  readonly maxTokens: number;
  readonly batchSize: number;
  private readonly queue = new InferenceQueue();

  private constructor(
    options: Required<Omit<CrossEncoderRerankerOptions, 'dtype'>>,
    private readonly tokenizer: TransformersTokenizer,
    private readonly model: TransformersModel,
  ) {
    this.modelId = options.modelId;
    this.localModelPath = options.localModelPath;
    this.candidates = options.candidates;
    this.maxTokens = options.maxTokens;
    this.batchSize = options.batchSize;
  }

  /** Loads tokenizer and model from disk and scores one pair, so a bad head fails here. */
  static async load(
    options: CrossEncoderRerankerOptions,
  ): Promise<CrossEncoderReranker> {
    const candidates = options.candidates ?? DEFAULT_RERANK_CANDIDATES;
    const batchSize = options.batchSize ?? 8;
    const maxTokens = options.maxTokens ?? 512;
    if (!Number.isInteger(candidates) || candidates < 1)
      throw new Error(
        `candidates must be a positive integer, got ${candidates}`,
      );
    checkBatchOptions(batchSize, maxTokens);
    const { tokenizer, model, root } = await loadLocalModel({
      modelId: options.modelId,
      localModelPath: options.localModelPath,
      dtype: options.dtype,
      what: 'Reranker model',
      pathKey: 'askDocs.retrieval.reranker.localModelPath',
      notFound: message => new RerankerModelNotFoundError(message),
      loadModel: (t, id, opts) =>
        t.AutoModelForSequenceClassification.from_pretrained(id, opts),
    });
    const reranker = new CrossEncoderReranker(
      {
        modelId: options.modelId,
        localModelPath: root,
        candidates,
        batchSize,
        maxTokens,
      },
      tokenizer,
      model,
    );
    await reranker.score('probe', ['probe']);
    return reranker;
  }

  async score(question: string, passages: string[]): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < passages.length; i += this.batchSize) {
      const batch = passages.slice(i, i + this.batchSize);
      out.push(...(await this.queue.run(() => this.runBatch(question, batch))));
    }
    return out;
  }

  async dispose(): Promise<void> {
    await this.model.dispose?.();
  }

  private async runBatch(
    question: string,
    passages: string[],
  ): Promise<number[]> {
    const inputs = this.tokenizer(
      passages.map(() => question),
      {
        text_pair: passages.map(p => this.fitPassage(question, p)),
        padding: true,
        // Only a question longer than maxTokens is still cut here (from its end).
        truncation: true,
        max_length: this.maxTokens,
      },
    );
    let outputs: Record<string, TransformersTensor>;
    try {
      outputs = await this.model(inputs);
    } catch (e) {
      throw explainInferenceError(e);
    }
    if (!outputs.logits) {
      throw new Error(
        `Reranker model produced no "logits" (outputs: ${Object.keys(
          outputs,
        ).join(', ')}); is it a sequence-classification export?`,
      );
    }
    return pairScores(outputs.logits, passages.length);
  }

  /**
   * The passage cut at a word boundary so that the pair, special tokens included, fits
   * maxTokens: cross-encoders are trained with the passage truncated and the question and the
   * closing separator kept, whereas the tokenizer's own truncation just cuts the pair's end.
   */
  private fitPassage(question: string, passage: string): string {
    const fits = (p: string) =>
      this.tokenizer.encode(question, { text_pair: p }).length <=
      this.maxTokens;
    if (fits(passage)) return passage;
    const words = passage.match(/\S+\s*/g) ?? [];
    // Binary search for the longest prefix of words that fits.
    let lo = 0;
    let hi = words.length - 1;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(words.slice(0, mid).join(''))) lo = mid;
      else hi = mid - 1;
    }
    // A word longer than the budget leaves nothing: fall back to the tokenizer's cut.
    return lo > 0 ? words.slice(0, lo).join('').trimEnd() : passage;
  }
}
