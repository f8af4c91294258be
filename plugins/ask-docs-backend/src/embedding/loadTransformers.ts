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
    options: { padding: boolean; truncation: boolean; max_length?: number },
  ): Record<string, TransformersTensor>;
  readonly model_max_length?: number;
}

export interface TransformersModel {
  (inputs: Record<string, TransformersTensor>): Promise<Record<string, TransformersTensor>>;
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
    from_pretrained(modelId: string, options?: Record<string, unknown>): Promise<TransformersTokenizer>;
  };
  AutoModel: {
    from_pretrained(modelId: string, options?: Record<string, unknown>): Promise<TransformersModel>;
  };
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

/** Loads transformers.js once per process; a failed load is retried on the next call. */
export function loadTransformers(): Promise<TransformersModule> {
  if (!cached) {
    cached = importTransformers().catch(e => {
      cached = undefined;
      throw e;
    });
  }
  return cached;
}
