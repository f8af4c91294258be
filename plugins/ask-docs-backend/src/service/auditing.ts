import type {
  AuditorService,
  AuditorServiceCreateEventOptions,
} from '@backstage/backend-plugin-api';
import { isError } from '@backstage/errors';
import type { AskResponse } from '@askdocs/plugin-ask-docs-common';
import type { JsonObject } from '@backstage/types';

/**
 * Runs `work` as one event of Backstage's auditor (coreServices.auditor): logged as initiated,
 * then as succeeded with what `outcome` reads from the result, or as failed with the error (a
 * refused permission too). Events carry ids and statuses, never a question or an answer's text:
 * audit logs are kept where askDocs.answer.retentionDays does not reach. The stored answer,
 * named by its id, holds the rest for whoever may read it.
 */
export async function audited<T>(
  auditor: AuditorService,
  event: AuditorServiceCreateEventOptions,
  work: () => Promise<T>,
  outcome?: (result: T) => JsonObject,
): Promise<T> {
  const logged = await auditor.createEvent(event);
  let result: T;
  try {
    result = await work();
  } catch (e) {
    await logged.fail({ error: isError(e) ? e : new Error(String(e)) });
    throw e;
  }
  await logged.success(outcome ? { meta: outcome(result) } : undefined);
  return result;
}

/** What an ask's audit event says about its answer: the record's id and how it ended. */
export function answerOutcome(response: AskResponse): JsonObject {
  return {
    answerId: response.id,
    status: response.status,
    grounded: response.grounded,
  };
}
