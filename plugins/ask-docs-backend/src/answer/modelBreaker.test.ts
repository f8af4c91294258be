import { ModelBreaker } from './modelBreaker';

describe('ModelBreaker', () => {
  let clock = 0;
  const options = {
    failures: 3,
    minOutageMs: 30_000,
    pauseMs: 30_000,
    maxPauseMs: 100_000,
  };
  const make = () => new ModelBreaker(options, () => clock);
  /** One admitted call that started `tookMs` ago and ended with `reason`. */
  const call = (
    breaker: ModelBreaker,
    reason: Parameters<ModelBreaker['record']>[0],
    tookMs = 0,
  ) => {
    const admitted = breaker.admit();
    if ('skipUntil' in admitted) return admitted.skipUntil.getTime();
    const startedAt = clock;
    clock += tookMs;
    breaker.record(reason, startedAt, admitted.probe);
    return 'called';
  };
  beforeEach(() => {
    clock = 1_000_000;
  });

  it('opens after the set number of failed calls spanning the minimum outage', () => {
    const breaker = make();
    expect(call(breaker, 'timeout', 20_000)).toBe('called');
    expect(call(breaker, 'timeout', 20_000)).toBe('called');
    expect(call(breaker, 'timeout', 20_000)).toBe('called');
    // Paused from the third failure's end.
    expect(call(breaker, undefined)).toBe(clock + 30_000);
    clock += 29_999;
    expect(call(breaker, undefined)).toBe(clock + 1);
  });

  it('does not open on a burst of failures, nor on failures the model answered itself', () => {
    const breaker = make();
    for (let i = 0; i < 10; i++)
      expect(call(breaker, 'server_error')).toBe('called');
    call(breaker, undefined);
    for (const reason of ['rejected', 'bad_response', 'incomplete'] as const) {
      call(breaker, 'connection', 20_000);
      call(breaker, 'connection', 20_000);
      // An error the server sent ends the count: it is up. Four failures in a row would open.
      call(breaker, reason);
      call(breaker, 'connection', 20_000);
      call(breaker, 'connection', 20_000);
      expect(call(breaker, undefined)).toBe('called');
    }
  });

  it('counts only failures in a row', () => {
    const breaker = make();
    call(breaker, 'timeout', 20_000);
    call(breaker, 'timeout', 20_000);
    call(breaker, undefined);
    call(breaker, 'timeout', 20_000);
    expect(call(breaker, 'timeout', 20_000)).toBe('called');
    expect(call(breaker, undefined)).toBe('called');
  });

  it('lets one probe through after the pause: failing doubles the pause, success closes', () => {
    const breaker = make();
    for (let i = 0; i < 3; i++) call(breaker, 'connection', 15_000);
    clock += 30_000;
    const probe = breaker.admit();
    expect(probe).toEqual({ probe: true });
    // While the probe runs, others are skipped.
    expect('skipUntil' in breaker.admit()).toBe(true);
    breaker.record('connection', clock, true);
    expect(call(breaker, undefined)).toBe(clock + 60_000);
    clock += 60_000;
    expect(call(breaker, 'connection')).toBe('called'); // the second probe fails
    expect(call(breaker, undefined)).toBe(clock + 100_000); // at most maxPauseMs
    clock += 100_000;
    expect(call(breaker, undefined)).toBe('called'); // the probe succeeds
    for (let i = 0; i < 5; i++) expect(call(breaker, undefined)).toBe('called');
    // Closed and reset: a new outage needs the whole count and span again.
    call(breaker, 'connection', 15_000);
    call(breaker, 'connection', 15_000);
    expect(call(breaker, undefined)).toBe('called');
  });

  it('is closed only by the probe, not by a long call that started before it opened', () => {
    const breaker = make();
    const longCall = { startedAt: clock, admitted: breaker.admit() };
    for (let i = 0; i < 3; i++) call(breaker, 'timeout', 15_000);
    expect(breaker.skipping()).toBe(true);
    // The stream begun before the outage ends well: the model still counts as down.
    breaker.record(undefined, longCall.startedAt, false);
    expect(breaker.skipping()).toBe(true);
    clock += 30_000;
    expect(breaker.skipping()).toBe(false);
    expect(call(breaker, undefined)).toBe('called'); // the probe
    expect(breaker.skipping()).toBe(false);
  });

  it('lets another call probe for an abandoned probe; ignores calls admitted before', () => {
    const breaker = make();
    const early = breaker.admit();
    for (let i = 0; i < 3; i++) call(breaker, 'timeout', 15_000);
    // A call admitted before the breaker opened fails late: it neither probes nor extends.
    breaker.record('timeout', clock, 'probe' in early && early.probe);
    clock += 30_000;
    expect(breaker.admit()).toEqual({ probe: true });
    breaker.abandoned();
    expect(breaker.admit()).toEqual({ probe: true });
  });
});
