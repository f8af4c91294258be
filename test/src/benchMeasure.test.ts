import { timeEach } from '../bench/measure';

describe('timeEach', () => {
  it('times every input once per pass after the untimed warm-up calls', async () => {
    const calls: number[] = [];
    const latency = await timeEach([1, 2, 3, 4], async n => calls.push(n), {
      warmup: 2,
      passes: 3,
    });
    expect(calls).toEqual([
      1,
      2,
      ...[1, 2, 3, 4],
      ...[1, 2, 3, 4],
      ...[1, 2, 3, 4],
    ]);
    expect(latency.n).toBe(12);
    expect(latency.passes).toHaveLength(3);
    for (const pass of latency.passes!)
      expect(pass.p95).toBeGreaterThanOrEqual(pass.p50);
    expect(latency.p95).toBeGreaterThanOrEqual(latency.p50);
  });

  it('reports no passes for a single pass, and times each input once', async () => {
    const calls: number[] = [];
    const latency = await timeEach([5, 6], async n => calls.push(n));
    expect(calls).toEqual([5, 6, 5, 6]);
    expect(latency.n).toBe(2);
    expect(latency.passes).toBeUndefined();
  });

  it('names the slowest timings by their place in the pass, not overall', async () => {
    const wait = (ms: number) => new Promise(r => setTimeout(r, ms));
    let call = 0;
    // Inputs 0..3, two passes: the first call of the second pass (input 0) is by far the slowest.
    const latency = await timeEach(
      [0, 1, 2, 3],
      async () => wait(++call === 5 ? 60 : 1),
      { warmup: 0, passes: 2 },
    );
    expect(latency.slowest).toHaveLength(3);
    expect(latency.slowest[0].at).toBe(0);
    expect(latency.slowest[0].ms).toBeGreaterThanOrEqual(55);
    expect(latency.slowest[1].ms).toBeLessThan(latency.slowest[0].ms);
    for (const s of latency.slowest) {
      expect(s.at).toBeGreaterThanOrEqual(0);
      expect(s.at).toBeLessThan(4);
    }
  });
});
