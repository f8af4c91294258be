import { InputError } from '@backstage/errors';
import { AskRequest } from '@askdocs/plugin-ask-docs-common';

/*
 * The request shapes (types, required fields, unknown fields, enums, the answer list's limit)
 * are checked by the OpenAPI router against src/schema/openapi.yaml before a handler runs. What
 * is left here is what the spec cannot say: the trimmed question against the configured limit.
 */

/** Rejects empty and oversized questions with a 400 the caller can act on. */
export function parseAskRequest(
  body: AskRequest,
  maxQuestionChars: number,
): AskRequest {
  const question = body.question.trim();
  if (!question) throw new InputError('The question is empty');
  if (question.length > maxQuestionChars) {
    throw new InputError(
      `The question is too long (${question.length} characters, at most ${maxQuestionChars})`,
    );
  }
  return {
    question,
    scope: body.scope,
    ...(body.threadId ? { threadId: body.threadId } : {}),
  };
}

/** The spec's default; the validator has already refused anything but an integer 1..100. */
export function parseLimit(value: number | string | undefined): number {
  return value === undefined ? 20 : Number(value);
}
