import {
  loadTransformers,
  TransformersNotInstalledError,
} from './loadTransformers';

const missing = (specifier: string) =>
  Object.assign(new Error(`Cannot find module '${specifier}'`), {
    code: 'MODULE_NOT_FOUND',
  });

describe('loadTransformers', () => {
  it('names the optional package and how to add it when it is not installed', async () => {
    const load = loadTransformers(() =>
      Promise.reject(missing('@huggingface/transformers')),
    );
    await expect(load).rejects.toBeInstanceOf(TransformersNotInstalledError);
    await expect(load).rejects.toThrow(
      new RegExp(
        /optional package @huggingface\/transformers is not installed.*/
          .source + /yarn --cwd packages\/backend add/.source,
      ),
    );
  });

  it(`passes other failures through unchanged (a missing transitive module is not "not \
installed")`, async () => {
    const other = missing('onnxruntime-common');
    await expect(loadTransformers(() => Promise.reject(other))).rejects.toBe(
      other,
    );
  });

  it('retries after a failed load', async () => {
    const mod = { env: {} } as any;
    await expect(
      loadTransformers(() => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom');
    await expect(loadTransformers(() => Promise.resolve(mod))).resolves.toBe(
      mod,
    );
  });
});
