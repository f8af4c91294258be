import type {
  AuditorService,
  AuditorServiceCreateEventOptions,
  AuditorServiceEvent,
  BackstageCredentials,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { isError } from '@backstage/errors';
import { AskResponse, isAnswerId } from '@askdocs/plugin-ask-docs-common';
import type { JsonObject } from '@backstage/types';
import { logInternalError } from './errors';
import { actorRef } from './principals';

/*
 * Backstage auditor events (coreServices.auditor) of the router and the actions: logged as
 * initiated, then as succeeded with ids and statuses, or as failed with the error's name and
 * message. Never a question or an answer's text: audit logs are kept where
 * askDocs.answer.retention does not reach; the stored answer, named by its id, holds the rest for
 * whoever may read it.
 */

/**
 * What an event says about a failure: name and message only. The error itself may carry more
 * (an abandoned answer carries the text the model streamed so far), and the auditor's logger
 * writes an error's own fields.
 */
function auditError(e: unknown): Error {
  const error = new Error(isError(e) ? e.message : String(e));
  error.name = isError(e) ? e.name : 'Error';
  delete error.stack;
  return error;
}

/**
 * One audit event around work whose event was created before it: `succeeded` or `failed` once
 * the work has ended. Logging the end cannot change what the work did (an answer stored and paid
 * for, a run started, a 403 to send): a failure to log is itself logged.
 */
export class AuditedCall {
  private constructor(
    private readonly event: AuditorServiceEvent,
    private readonly logger: LoggerService,
  ) {}

  /** Creates the event; a failure here fails the request before any work (fail closed). */
  static async start(
    auditor: AuditorService,
    logger: LoggerService,
    options: AuditorServiceCreateEventOptions,
  ): Promise<AuditedCall> {
    return new AuditedCall(await auditor.createEvent(options), logger);
  }

  async succeeded(meta?: JsonObject): Promise<void> {
    await this.end(() => this.event.success(meta ? { meta } : undefined));
  }

  async failed(e: unknown): Promise<void> {
    await this.end(() => this.event.fail({ error: auditError(e) }));
  }

  private async end(log: () => Promise<void>): Promise<void> {
    try {
      await log();
    } catch (e) {
      logInternalError(this.logger, e, 'audit event');
    }
  }
}

/** Runs `work` as one audit event (AuditedCall); `outcome` reads its meta from the result. */
export async function audited<T>(
  auditor: AuditorService,
  logger: LoggerService,
  options: AuditorServiceCreateEventOptions,
  work: () => Promise<T>,
  outcome?: (result: T) => JsonObject,
): Promise<T> {
  const call = await AuditedCall.start(auditor, logger, options);
  let result: T;
  try {
    result = await work();
  } catch (e) {
    await call.failed(e);
    throw e;
  }
  await call.succeeded(outcome?.(result));
  return result;
}

/** What an ask's audit event says about its answer: the record's id and how it ended. */
export function answerOutcome(response: AskResponse): JsonObject {
  return {
    answerId: response.id,
    status: response.status,
    grounded: response.grounded,
    // Why there is no model answer: a spent quota and a model outage look alike otherwise.
    ...(response.reason ? { reason: response.reason } : {}),
  };
}

/**
 * The plugin a user's request came through (an on-behalf-of token's actor, such as a plugin
 * using @askdocs/plugin-ask-docs-node): the auditor names only the user.
 */
export function viaMeta(credentials: BackstageCredentials): JsonObject {
  const via = actorRef(credentials);
  return via ? { via } : {};
}

/** An answer id from a request path, for an event's meta: only when it is one (no free text). */
export function answerIdMeta(id: string): JsonObject {
  return isAnswerId(id) ? { answerId: id } : {};
}
