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
});
