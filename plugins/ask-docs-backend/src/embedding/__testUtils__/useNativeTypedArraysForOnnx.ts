import vm from 'node:vm';

const TYPED_ARRAYS = [
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
] as const;

/**
 * Jest runs each test file in its own JavaScript realm, while onnxruntime-node's native binding
 * returns typed arrays from Node's main realm; onnxruntime-common's `instanceof Float32Array`
 * check then fails. Making the sandbox use the main realm's typed-array constructors fixes that.
 * Call before the first model load; test-only, the real backend has a single realm.
 */
export function useNativeTypedArraysForOnnx(): void {
  const g = globalThis as Record<string, unknown>;
  for (const name of TYPED_ARRAYS) {
    const native = vm.runInThisContext(name);
    if (g[name] !== native) g[name] = native;
  }
}
