/*
 * Shared by the suites that are scripts rather than jest files (browser, adopter): polling with a
 * deadline, and the jest-shaped result file the gate reads (decision record 0005).
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * Thrown inside a waitFor callback to stop waiting at once (a process died) instead of retrying.
 */
export class StopWaiting extends Error {}

/** Polls `fn` until it returns a value, retrying on errors, until `timeoutMs` has passed. */
export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined>,
  timeoutMs: number,
  intervalMs = 1000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await fn();
      if (value !== undefined) return value;
    } catch (e) {
      if (e instanceof StopWaiting) throw e;
      lastError = e;
    }
    await new Promise(r => setTimeout(r, intervalMs));
  }
  throw new Error(
    `timed out waiting for ${what}${lastError ? `: ${lastError}` : ''}`,
  );
}

export interface SuiteCheck {
  name: string;
  ok: boolean;
  detail?: string;
}

/** Writes the result in the shape of jest's --json output; no checks at all counts as failed. */
export function writeSuiteResult(
  file: string,
  testFile: string,
  checks: SuiteCheck[],
  extra: Record<string, unknown> = {},
): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const passed = checks.filter(c => c.ok).length;
  const ok = passed === checks.length && passed > 0;
  fs.writeFileSync(
    file,
    JSON.stringify(
      {
        numTotalTests: checks.length,
        numPassedTests: passed,
        numFailedTests: checks.length - passed,
        numPendingTests: 0,
        ...extra,
        checks,
        testResults: [{ name: testFile, status: ok ? 'passed' : 'failed' }],
      },
      null,
      2,
    ),
  );
}
