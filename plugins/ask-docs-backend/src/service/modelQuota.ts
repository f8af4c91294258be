import type { NoAnswerNotice } from '../answer';
import type { AskDocsStore } from '../database/AskDocsStore';

import type { ModelQuota } from '@askdocs/plugin-ask-docs-common';

export type { ModelQuota };

/** What the audit record keeps of a question the quota kept from the model. */
export interface QuotaUse extends ModelQuota {
  /** The principal's model calls in the window when it asked, recorded and still running. */
  used: number;
}

/** "hour", "24 hours", "2 days", "90 seconds": the window as a person would say it. */
export function windowText(seconds: number): string {
  const [size, unit] =
    seconds % 86_400 === 0 && seconds > 86_400
      ? [86_400, 'day']
      : seconds % 3_600 === 0
      ? [3_600, 'hour']
      : seconds % 60 === 0
      ? [60, 'minute']
      : [1, 'second'];
  const n = seconds / size;
  return n === 1 ? unit : `${n} ${unit}s`;
}

/** The evidence-only notice of a spent quota: the limit, its sliding window, what comes back. */
export function quotaNotice(quota: ModelQuota): string {
  const window = windowText(quota.windowSeconds);
  const single = window === 'hour' ? 'an hour' : `a ${window}`;
  return (
    `Not an answer: you have had ${quota.calls} language model answers in the last ${window}, ` +
    "this portal's limit, so the model was not asked. It answers again as your earlier " +
    `answers become older than ${
      window.includes(' ') ? window : single
    }. These are the ` +
    'most relevant passages from the documentation.'
  );
}

/** One ask's view of the quota: the answer step's holdModel, and release() when it is over. */
export interface QuotaCheck {
  hold(): Promise<NoAnswerNotice | undefined>;
  /** The ask's record is written (or it failed): its call now counts from the table. */
  release(): void;
}

/**
 * Counts a principal's model calls: those recorded in the window (every instance writes the
 * same table; failed calls cost nothing and do not count) and those this instance is still
 * making, so parallel asks cannot all pass the limit before the first is recorded. Parallel asks
 * on several instances can still pass it by their number.
 */
export class ModelQuotaGuard {
  private readonly running = new Map<string, number>();

  constructor(
    private readonly quota: ModelQuota,
    private readonly store: Pick<AskDocsStore, 'countModelCalls'>,
  ) {}

  check(userRef: string, onHeld: (use: QuotaUse) => void): QuotaCheck {
    let counted = false;
    return {
      hold: async () => {
        const recorded = await this.store.countModelCalls(
          userRef,
          this.quota.windowSeconds,
        );
        const used = recorded + (this.running.get(userRef) ?? 0);
        if (used >= this.quota.calls) {
          onHeld({ ...this.quota, used });
          return {
            reason: 'quota_exceeded',
            notice: quotaNotice(this.quota),
            quota: { ...this.quota },
          };
        }
        counted = true;
        this.running.set(userRef, (this.running.get(userRef) ?? 0) + 1);
        return undefined;
      },
      release: () => {
        if (!counted) return;
        counted = false;
        const left = (this.running.get(userRef) ?? 1) - 1;
        if (left > 0) this.running.set(userRef, left);
        else this.running.delete(userRef);
      },
    };
  }
}
