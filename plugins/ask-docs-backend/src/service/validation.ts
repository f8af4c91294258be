import { InputError } from '@backstage/errors';
import { AnswerFeedback, AskRequest } from '@askdocs/plugin-ask-docs-common';
import { z } from 'zod';

const askSchema = z
  .object({
    question: z.string(),
    scope: z
      .object({ entityRefs: z.array(z.string().min(1).max(300)).max(50).optional() })
      .strict()
      .optional(),
  })
  .strict();

/** Rejects empty, oversized and malformed questions with a 400 the caller can act on. */
export function parseAskRequest(body: unknown, maxQuestionChars: number): AskRequest {
  const parsed = askSchema.safeParse(body);
  if (!parsed.success) {
    throw new InputError(`Invalid request: ${parsed.error.issues.map(i => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`);
  }
  const question = parsed.data.question.trim();
  if (!question) throw new InputError('The question is empty');
  if (question.length > maxQuestionChars) {
    throw new InputError(`The question is too long (${question.length} characters, at most ${maxQuestionChars})`);
  }
  return { question, scope: parsed.data.scope };
}

const feedbackSchema = z.object({ rating: z.enum(['up', 'down']), comment: z.string().max(2000).optional() }).strict();

export function parseFeedback(body: unknown): AnswerFeedback {
  const parsed = feedbackSchema.safeParse(body);
  if (!parsed.success) throw new InputError('Feedback needs rating "up" or "down" and an optional comment');
  return parsed.data;
}

export function parseLimit(value: unknown): number {
  if (value === undefined) return 20;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new InputError('limit must be an integer from 1 to 100');
  return n;
}
