import fs from 'node:fs';
import path from 'node:path';
import {
  loadTransformers,
  TransformersModule,
  TransformersTokenizer,
} from './loadTransformers';

/**
 * The one way this plugin loads a transformers.js model (embedder and reranker alike): from a
 * local directory only, with remote downloads and every cache disabled, checking the files
 * first so a missing model is reported by path and config key, not by a fetch error.
 */

/** File-name suffixes transformers.js appends per dtype (onnx/model<suffix>.onnx). */
// Without a prototype: "constructor" and the like are no variants, wherever this is looked up.
export const DTYPE_SUFFIX: Readonly<Record<string, string>> = Object.freeze(
  Object.assign(Object.create(null), {
    fp32: '',
    fp16: '_fp16',
    q8: '_quantized',
    int8: '_int8',
    uint8: '_uint8',
    q4: '_q4',
    q4f16: '_q4f16',
    bnb4: '_bnb4',
  }),
);

export interface LocalModelRequest<M> {
  /** Model id as laid out under localModelPath, e.g. "Xenova/multilingual-e5-small". */
  modelId: string;
  localModelPath: string;
  /** Which ONNX variant to load; fp32 is onnx/model.onnx, q8 is onnx/model_quantized.onnx. */
  dtype?: string;
  /** Names the model in errors: "Embedding model", "Reranker model". */
  what: string;
  /** The config key that sets localModelPath, named in the not-found error. */
  pathKey: string;
  /** Builds the error for missing files (each caller has its own class). */
  notFound: (message: string) => Error;
  /** Loads the model class the caller needs (AutoModel, AutoModelForSequenceClassification). */
  loadModel: (
    transformers: TransformersModule,
    modelId: string,
    options: Record<string, unknown>,
  ) => Promise<M>;
}

export interface LocalModel<M> {
  tokenizer: TransformersTokenizer;
  model: M;
  /** localModelPath, resolved. */
  root: string;
}

/** Model loading mutates transformers.js's global env, so loads must not interleave. */
let loadLock: Promise<unknown> = Promise.resolve();
function withLoadLock<T>(fn: () => Promise<T>): Promise<T> {
  const run = loadLock.then(fn, fn);
  loadLock = run.catch(() => undefined);
  return run;
}

function checkModelFiles(
  r: LocalModelRequest<unknown>,
  modelDir: string,
  onnxFile: string,
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
    throw r.notFound(
      `${r.what} "${r.modelId}" not found in local model path "${root}": missing ` +
        `${missing
          .map(f => path.join(modelDir, f))
          .join(', ')}. Remote model downloads are disabled; ` +
        `place the model files (${required.join(', ')}) ` +
        `in "${modelDir}" or set ${r.pathKey}.`,
    );
  }
}

/** Guards the global fetch transformers.js would use, so a mistake can never reach the hub. */
function blockedFetch(url: unknown): Promise<never> {
  return Promise.reject(
    new Error(
      `Network access is disabled for local models (attempted to fetch ${String(
        url,
      )})`,
    ),
  );
}

/** Checks the files, then loads tokenizer and model with remote access off. */
export async function loadLocalModel<M>(
  r: LocalModelRequest<M>,
): Promise<LocalModel<M>> {
  const root = path.resolve(r.localModelPath);
  const dtype = r.dtype ?? 'fp32';
  const suffix = DTYPE_SUFFIX[dtype];
  if (suffix === undefined) {
    throw new Error(
      `Unsupported ${r.what.toLowerCase()} dtype "${dtype}"; use one of ${Object.keys(
        DTYPE_SUFFIX,
      ).join(', ')}`,
    );
  }
  const dir = path.resolve(root, r.modelId);
  // An id is a folder under localModelPath, never a way out of it ('../x', '/etc').
  if (!dir.startsWith(`${root}${path.sep}`)) {
    throw new Error(
      `${r.what} id "${r.modelId}" is not a folder under ${root}: model ids name a ` +
        'directory inside localModelPath',
    );
  }
  checkModelFiles(r, dir, path.join('onnx', `model${suffix}.onnx`), root);

  const transformers: TransformersModule = await loadTransformers();
  return withLoadLock(async () => {
    const env = transformers.env;
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = root.endsWith(path.sep) ? root : `${root}${path.sep}`;
    // Caches exist only for downloaded files; never write into node_modules.
    env.useFSCache = false;
    env.useBrowserCache = false;
    env.fetch = blockedFetch;
    const opts = { local_files_only: true };
    return {
      tokenizer: await transformers.AutoTokenizer.from_pretrained(
        r.modelId,
        opts,
      ),
      model: await r.loadModel(transformers, r.modelId, {
        ...opts,
        dtype,
        device: 'cpu',
      }),
      root,
    };
  });
}

/** Adds the likely cause to onnxruntime's cross-realm typed-array error. */
export function explainInferenceError(e: unknown): Error {
  const err = e instanceof Error ? e : new Error(String(e));
  if (/tensor's data must be type of/.test(err.message)) {
    err.message +=
      ' (typed arrays from two JavaScript realms; under jest call useNativeTypedArraysForOnnx() ' +
      'from embedding/__testUtils__ before loading the model)';
  }
  return err;
}

/**
 * One batch at a time per model, so concurrent requests do not oversubscribe the CPU. Urgent
 * batches (a question someone waits for) go before queued ones (an ingestion run's passages,
 * which can queue many): an ask during a run waits for one batch, not for the run's backlog.
 */
export class InferenceQueue {
  private running = false;
  private readonly urgent: Array<() => Promise<void>> = [];
  private readonly waiting: Array<() => Promise<void>> = [];

  run<T>(fn: () => Promise<T>, options: { urgent?: boolean } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const job = () => Promise.resolve().then(fn).then(resolve, reject);
      (options.urgent ? this.urgent : this.waiting).push(job);
      this.next();
    });
  }

  private next(): void {
    if (this.running) return;
    const job = this.urgent.shift() ?? this.waiting.shift();
    if (!job) return;
    this.running = true;
    job().finally(() => {
      this.running = false;
      this.next();
    });
  }
}

/** Validates the batch and truncation options both model kinds take. */
export function checkBatchOptions(batchSize: number, maxTokens: number): void {
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new Error(`batchSize must be a positive integer, got ${batchSize}`);
  if (!Number.isInteger(maxTokens) || maxTokens < 2)
    throw new Error(`maxTokens must be an integer >= 2, got ${maxTokens}`);
}
