import { InputError } from '@backstage/errors';
import {
  AnswerFeedback,
  AskRequest,
  isAnswerId,
  normalizeScopeRef,
} from '@askdocs/plugin-ask-docs-common';
import { isStorableText } from '../database/storableText';
import { spec } from '../schema/openapi';

/*
 * The request shapes (types, required fields, unknown fields, enums, the answer list's limit,
 * no NUL characters) are checked by the OpenAPI router against src/schema/openapi.yaml before a
 * handler runs. What is left here is what the spec cannot say (the trimmed question against the
 * configured limit) and what must hold on paths the validator does not see: HEAD requests (it
 * skips undocumented operations) and the actions registry (which does not use the spec).
 */

/** Text the answer record cannot store is refused here, before retrieval and the model. */
function refuseUnstorable(value: string | undefined, what: string) {
  if (value !== undefined && !isStorableText(value)) {
    throw new InputError(
      `The ${what} contains a NUL character (U+0000) or a lone UTF-16 surrogate`,
    );
  }
}

/** Rejects empty and oversized questions with a 400 the caller can act on. */
export function parseAskRequest(
  body: AskRequest,
  maxQuestionChars: number,
): AskRequest {
  refuseUnstorable(body.question, 'question');
  refuseUnstorable(body.threadId, 'threadId');
  for (const ref of body.scope?.entityRefs ?? [])
    refuseUnstorable(ref, 'entity ref');
  const question = body.question.trim();
  if (!question) throw new InputError('The question is empty');
  if (question.length > maxQuestionChars) {
    throw new InputError(
      `The question is too long (${question.length} characters, at most ${maxQuestionChars})`,
    );
  }
  return {
    question,
    scope: body.scope && {
      ...body.scope,
      ...(body.scope.entityRefs && {
        entityRefs: body.scope.entityRefs.map(scopeRef),
      }),
    },
    ...(body.threadId ? { threadId: body.threadId } : {}),
  };
}

/** A ref that names no entity is a 400, not a question answered from nothing. */
function scopeRef(ref: string): string {
  const normalized = normalizeScopeRef(ref);
  if (normalized) return normalized;
  throw new InputError(
    `The scope's entity ref ${JSON.stringify(ref.slice(0, 100))} is not one: ` +
      'expected kind:namespace/name, e.g. component:default/payments',
  );
}

/** A feedback body the store can hold. */
export function parseFeedback(body: AnswerFeedback): AnswerFeedback {
  refuseUnstorable(body.comment, 'comment');
  return body;
}

const LIMIT = spec.paths['/v1/answers'].get.parameters[0].schema;

/**
 * The answer list's limit, an integer within the spec's bounds. Checked here as well: a HEAD
 * request runs the GET handler unvalidated, and a NaN limit would make knex drop the LIMIT.
 */
export function parseLimit(value: unknown): number {
  if (value === undefined) return LIMIT.default;
  const limit =
    typeof value === 'number' ||
    (typeof value === 'string' && /^\d+$/.test(value))
      ? Number(value)
      : NaN;
  if (
    !Number.isInteger(limit) ||
    limit < LIMIT.minimum ||
    limit > LIMIT.maximum
  ) {
    throw new InputError(
      `limit must be an integer from ${LIMIT.minimum} to ${LIMIT.maximum}`,
    );
  }
  return limit;
}

/** The answer list's `before`, an answer id when given (checked here too, for HEAD as above). */
export function parseBefore(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !isAnswerId(value))
    throw new InputError('before must be an answer id (a UUID)');
  return value;
}
