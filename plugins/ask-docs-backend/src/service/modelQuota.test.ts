import { ModelQuotaGuard, quotaNotice, windowText } from './modelQuota';

describe('quotaNotice', () => {
  it.each([
    [3_600, 'hour'],
    [7_200, '2 hours'],
    [86_400, '24 hours'],
    [2 * 86_400, '2 days'],
    [1_800, '30 minutes'],
    [90, '90 seconds'],
  ])('names a window of %i seconds "%s"', (windowSeconds, text) => {
    expect(windowText(windowSeconds)).toBe(text);
  });

  it('says the limit, that the window slides, and when the model answers again', () => {
    expect(quotaNotice({ calls: 20, windowSeconds: 3_600 })).toBe(
      'Not an answer: you have had 20 language model answers in the last hour, this ' +
        "portal's limit, so the model was not asked. It answers again as your earlier answers " +
        'become older than an hour. These are the most relevant passages from the documentation.',
    );
    expect(quotaNotice({ calls: 3, windowSeconds: 86_400 })).toContain(
      'in the last 24 hours, ',
    );
    expect(quotaNotice({ calls: 3, windowSeconds: 60 })).toContain(
      'older than a minute.',
    );
  });
});

describe('ModelQuotaGuard', () => {
  const quota = { calls: 2, windowSeconds: 60 };
  const recorded = (n: number) => ({ countModelCalls: jest.fn(async () => n) });

  it('lets the model be called below the limit, counting by the principal and window', async () => {
    const store = recorded(1);
    const held = jest.fn();
    const check = new ModelQuotaGuard(quota, store).check('user:a', held);
    await expect(check.hold()).resolves.toBeUndefined();
    expect(store.countModelCalls).toHaveBeenCalledWith('user:a', 60);
    expect(held).not.toHaveBeenCalled();
  });

  it('holds the model at the limit, with the notice and what was counted', async () => {
    const held = jest.fn();
    const check = new ModelQuotaGuard(quota, recorded(2)).check('user:a', held);
    await expect(check.hold()).resolves.toEqual({
      reason: 'quota_exceeded',
      notice: quotaNotice(quota),
      quota,
    });
    expect(held).toHaveBeenCalledWith({ calls: 2, windowSeconds: 60, used: 2 });
  });

  it("counts this instance's calls still running, until they are released", async () => {
    const guard = new ModelQuotaGuard(quota, recorded(0));
    const first = guard.check('user:a', () => {});
    const second = guard.check('user:a', () => {});
    await first.hold();
    await second.hold();
    // Both running, none recorded yet: a third parallel ask is held.
    const third = guard.check('user:a', () => {});
    await expect(third.hold()).resolves.toMatchObject({
      reason: 'quota_exceeded',
    });
    // Another principal's running calls are not theirs.
    await expect(
      guard.check('user:b', () => {}).hold(),
    ).resolves.toBeUndefined();

    // Released (recorded, in real life; this store still says 0): room again. A held ask's
    // release frees nothing, and releasing twice frees one call only.
    third.release();
    first.release();
    first.release();
    await expect(
      guard.check('user:a', () => {}).hold(),
    ).resolves.toBeUndefined();
    await expect(guard.check('user:a', () => {}).hold()).resolves.toMatchObject(
      { reason: 'quota_exceeded' },
    );
  });
});
