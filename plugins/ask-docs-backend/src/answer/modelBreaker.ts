import type { LoggerService } from '@backstage/backend-plugin-api';
import type { ModelFailureReason } from '@askdocs/plugin-ask-docs-common';

/** Failures that say the model is not serving at all (the retryable ones). */
const DOWN: ReadonlySet<ModelFailureReason> = new Set([
  'timeout',
  'connection',
  'server_error',
  'rate_limited',
]);

export interface ModelBreakerOptions {
  /** Calls in a row that failed as DOWN before the breaker opens. */
  failures: number;
  /** ... over at least this long (from the first one's start): a burst of errors is no outage. */
  minOutageMs: number;
  /** The first pause; each failed probe doubles it, up to maxPauseMs. */
  pauseMs: number;
  maxPauseMs: number;
}

export const DEFAULT_MODEL_BREAKER: ModelBreakerOptions = {
  failures: 3,
  minOutageMs: 30_000,
  pauseMs: 30_000,
  maxPauseMs: 300_000,
};

/**
 * Stops calling a model that is down. Each failed call can take the timeout times its attempts
 * (a minute by default) before the asker gets the evidence; once calls have failed for a while,
 * asks get the evidence at once instead, and one call (the probe) tries the model again after a
 * pause. Any call the model answers, even with an error of its own (a rejected key, a cut-off
 * answer), closes the breaker: the server is up.
 */
export class ModelBreaker {
  private failed = 0;
  private firstFailedStart: number | undefined;
  /** Set while open: no call before this time, and then only the probe. */
  private pausedUntil: number | undefined;
  /** When it opened: calls started before then say nothing about the model since. */
  private openedAt = 0;
  private pause: number;
  private probing = false;

  constructor(
    private readonly o: ModelBreakerOptions = DEFAULT_MODEL_BREAKER,
    private readonly now: () => number = Date.now,
    private readonly logger?: LoggerService,
  ) {
    this.pause = o.pauseMs;
  }

  /** Whether a call may go ahead (the probe, when the breaker is open), or until when not. */
  admit(): { probe: boolean } | { skipUntil: Date } {
    if (this.pausedUntil === undefined) return { probe: false };
    if (this.now() < this.pausedUntil || this.probing)
      return { skipUntil: new Date(Math.max(this.pausedUntil, this.now())) };
    this.probing = true;
    return { probe: true };
  }

  /** Whether a call now would be skipped (admit() without taking the probe). */
  skipping(): boolean {
    return (
      this.pausedUntil !== undefined &&
      (this.now() < this.pausedUntil || this.probing)
    );
  }

  /** The probe ended without a verdict (its asker left): the next call probes. */
  abandoned(): void {
    this.probing = false;
  }

  /**
   * After an admitted call: `reason` undefined when it succeeded, `startedAt` its start, `probe`
   * what admit() said of it.
   */
  record(
    reason: ModelFailureReason | undefined,
    startedAt: number,
    probe: boolean,
  ): void {
    // A long call that started before it opened (a stream begun before the outage) neither
    // closes it nor extends it: only the probe decides.
    if (!probe && this.pausedUntil !== undefined && startedAt < this.openedAt)
      return;
    if (reason === undefined || !DOWN.has(reason)) {
      if (this.pausedUntil !== undefined)
        this.logger?.info('ask-docs: the language model answers again');
      this.failed = 0;
      this.firstFailedStart = undefined;
      this.pausedUntil = undefined;
      this.pause = this.o.pauseMs;
      this.probing = false;
      return;
    }
    if (probe) {
      this.probing = false;
      this.pause = Math.min(this.pause * 2, this.o.maxPauseMs);
      this.open(reason);
      return;
    }
    if (this.pausedUntil !== undefined) return; // started while open: the probe decides
    this.failed += 1;
    this.firstFailedStart = Math.min(
      this.firstFailedStart ?? startedAt,
      startedAt,
    );
    if (
      this.failed >= this.o.failures &&
      this.now() - this.firstFailedStart >= this.o.minOutageMs
    )
      this.open(reason);
  }

  private open(reason: ModelFailureReason) {
    this.openedAt = this.now();
    this.pausedUntil = this.openedAt + this.pause;
    const since = new Date(this.firstFailedStart ?? this.now()).toISOString();
    this.logger?.warn(
      `ask-docs: the language model is not serving (${reason}; calls failing since ${since}): ` +
        `asks get the evidence without calling it for ${
          this.pause / 1000
        } s, then one call ` +
        'tries it again',
    );
  }
}
