import { InferenceQueue } from './localModel';

/** A batch that runs until released, recording when it starts. */
function batch(name: string, started: string[]) {
  let release: () => void = () => {};
  const done = new Promise<void>(resolve => (release = resolve));
  return {
    release: () => release(),
    fn: async () => {
      started.push(name);
      await done;
      return name;
    },
  };
}

describe('InferenceQueue', () => {
  it('runs one batch at a time, an urgent one before those already waiting', async () => {
    const queue = new InferenceQueue();
    const started: string[] = [];
    const running = batch('passages-1', started);
    const waiting = batch('passages-2', started);
    const last = batch('passages-3', started);
    const query = batch('query', started);
    const results = [
      queue.run(running.fn),
      queue.run(waiting.fn),
      queue.run(last.fn),
      queue.run(query.fn, { urgent: true }),
    ];
    await new Promise(resolve => setImmediate(resolve));
    // The running batch is not interrupted, and nothing else runs beside it.
    expect(started).toEqual(['passages-1']);
    running.release();
    await results[0];
    await new Promise(resolve => setImmediate(resolve));
    expect(started).toEqual(['passages-1', 'query']);
    query.release();
    waiting.release();
    last.release();
    expect(await Promise.all(results)).toEqual([
      'passages-1',
      'passages-2',
      'passages-3',
      'query',
    ]);
    // In their own order after the urgent one.
    expect(started).toEqual([
      'passages-1',
      'query',
      'passages-2',
      'passages-3',
    ]);
  });

  it('goes on after a batch that fails or throws at once, rejecting only its caller', async () => {
    const queue = new InferenceQueue();
    const failing = queue.run(async () => {
      throw new Error('session released');
    });
    const throwing = queue.run((() => {
      throw new Error('bad input');
    }) as () => Promise<never>);
    const next = queue.run(async () => 'next');
    await expect(failing).rejects.toThrow('session released');
    await expect(throwing).rejects.toThrow('bad input');
    await expect(next).resolves.toBe('next');
  });
});
