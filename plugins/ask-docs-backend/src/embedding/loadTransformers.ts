/**
 * The parts of @huggingface/transformers this plugin uses, typed structurally so we depend on
 * behaviour rather than on the package's large generated typings.
 */
export interface TransformersTensor {
  dims: number[];
  data: ArrayLike<number | bigint>;
}

export interface TransformersTokenizer {
  (
    texts: string[],
    options: {
      padding: boolean;
      truncation: boolean;
      max_length?: number;
      /** Second segments of pairs (cross-encoders), as long as `texts`. */
      text_pair?: string[];
    },
  ): Record<string, TransformersTensor>;
  /** Token ids of one text or pair, special tokens included; no truncation. */
  encode(text: string, options?: { text_pair?: string | null }): number[];
  readonly model_max_length?: number;
}

export interface TransformersModel {
  (inputs: Record<string, TransformersTensor>): Promise<
    Record<string, TransformersTensor>
  >;
  dispose?(): Promise<unknown>;
}

export interface TransformersEnv {
  allowRemoteModels: boolean;
  allowLocalModels: boolean;
  localModelPath: string;
  useFSCache: boolean;
  useBrowserCache: boolean;
  fetch: (...args: unknown[]) => Promise<unknown>;
}

export interface TransformersModule {
  env: TransformersEnv;
  AutoTokenizer: {
    from_pretrained(
      modelId: string,
      options?: Record<string, unknown>,
    ): Promise<TransformersTokenizer>;
  };
  AutoModel: TransformersModelClass;
  /** Cross-encoders: a classification head whose `logits` score a (question, passage) pair. */
  AutoModelForSequenceClassification: TransformersModelClass;
}

export interface TransformersModelClass {
  from_pretrained(
    modelId: string,
    options?: Record<string, unknown>,
  ): Promise<TransformersModel>;
}

const PACKAGE = '@huggingface/transformers';
let cached: Promise<TransformersModule> | undefined;

async function nativeImport(): Promise<TransformersModule> {
  // Built via Function so no transpiler rewrites it into require().
  // eslint-disable-next-line no-new-func
  const importFn = new Function('specifier', 'return import(specifier)') as (
    s: string,
  ) => Promise<TransformersModule & { default?: TransformersModule }>;
  const mod = await importFn(PACKAGE);
  return mod.env ? mod : (mod.default as TransformersModule);
}

async function importTransformers(): Promise<TransformersModule> {
  // Under jest and in the Backstage backend this file is CommonJS; the package ships a CJS build,
  // and jest cannot run a real import() without --experimental-vm-modules.
  if (typeof require !== 'function') return nativeImport();
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(PACKAGE) as TransformersModule;
  } catch (requireError) {
    // ESM-only environments (or bundler require shims) can still load it natively.
    try {
      return await nativeImport();
    } catch {
      throw requireError;
    }
  }
}

/** Thrown when a model is configured but the optional transformers.js package is absent. */
export class TransformersNotInstalledError extends Error {
  constructor(cause: unknown) {
    super(
      `a local model is configured (askDocs.embeddings or askDocs.retrieval.reranker), but ` +
        `the optional package ${PACKAGE} is not ` +
        `installed; add it to the backend package (yarn --cwd packages/backend add ${PACKAGE})`,
      { cause },
    );
    this.name = 'TransformersNotInstalledError';
  }
}

function isMissingPackage(error: unknown): boolean {
  const { code, message } = (error ?? {}) as {
    code?: string;
    message?: string;
  };
  return (
    (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') &&
    String(message).includes(PACKAGE)
  );
}

/** Loads transformers.js once per process; a failed load is retried on the next call. */
export function loadTransformers(
  importer: () => Promise<TransformersModule> = importTransformers,
): Promise<TransformersModule> {
  if (!cached) {
    cached = importer().catch(e => {
      cached = undefined;
      throw isMissingPackage(e) ? new TransformersNotInstalledError(e) : e;
    });
  }
  return cached;
}
