import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { useNativeTypedArraysForOnnx } from './useNativeTypedArraysForOnnx';

/**
 * Jest hooks for tests that load models from disk: a fresh temporary model directory (built by
 * `build`, removed afterwards), onnxruntime's typed arrays made native, and a check after every
 * test that nothing called fetch (loading and inference must never touch the network).
 * Returns the directory's getter, valid from the first test on.
 */
export function useLocalModelTestDir(
  prefix: string,
  build: (dir: string) => Promise<unknown> = async () => undefined,
): () => string {
  let dir = '';
  let fetchSpy: jest.SpyInstance;

  beforeAll(async () => {
    useNativeTypedArraysForOnnx();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
    await build(dir);
  });

  beforeEach(() => {
    fetchSpy = jest.spyOn(globalThis, 'fetch');
  });

  afterEach(() => {
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
  });

  afterAll(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  return () => dir;
}
