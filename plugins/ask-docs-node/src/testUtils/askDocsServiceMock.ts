import {
  BackstageCredentials,
  createServiceFactory,
} from '@backstage/backend-plugin-api';
import { createServiceMock } from '@backstage/backend-test-utils';
import { NotAllowedError } from '@backstage/errors';
import {
  AnswerRecord,
  AskRequest,
  AskResponse,
  isAnswerId,
  NOT_IN_KNOWLEDGE_BASE_ANSWER,
} from '@askdocs/plugin-ask-docs-common';
import { randomUUID } from 'crypto';
import { AskDocsCallOptions, AskDocsService } from '../AskDocsService';
import { askDocsServiceRef } from '../askDocsServiceRef';
import { USER_CREDENTIALS_REQUIRED } from '../DefaultAskDocsService';

/** What a fake answer says; the rest (`id`, `createdAt`, models) the fake fills in. */
export type AskDocsMockAnswer = Partial<
  Omit<AskResponse, 'id' | 'createdAt' | 'embeddingModel'>
>;

/** @public */
export interface AskDocsServiceMockOptions {
  /**
   * The answer to each question, by its exact text, or a function of the request. A question
   * without one is "not in the knowledge base", as the real service answers a question no
   * visible document answers. Given fields are merged over an `answered`, grounded answer.
   */
  answers?:
    | Record<string, AskDocsMockAnswer>
    | ((request: AskRequest) => AskDocsMockAnswer | undefined);
}

/**
 * An in-memory AskDocsService for the tests of a plugin that asks the docs. It keeps the real
 * service's contract where a caller can get it wrong: `ask` refuses a service's credentials
 * (NotAllowedError) and rejects with an aborted signal's reason; `getAnswer` gives an answer
 * back only to the user who asked (undefined for anyone else, or for an id that is no answer's,
 * as the backend does for a caller without the audit permission); the record names the calling
 * plugin (`askedVia`) of on-behalf-of credentials.
 *
 * @public
 */
export function askDocsServiceMock(
  options: AskDocsServiceMockOptions = {},
): AskDocsService {
  const stored = new Map<string, AnswerRecord>();
  const answerTo = (request: AskRequest) =>
    typeof options.answers === 'function'
      ? options.answers(request)
      : options.answers?.[request.question];
  return {
    async ask(request: AskRequest, call: AskDocsCallOptions) {
      call.signal?.throwIfAborted();
      const userRef = userOf(call.credentials);
      if (!userRef) throw new NotAllowedError(USER_CREDENTIALS_REQUIRED);
      const given = answerTo(request);
      const response: AskResponse = {
        id: randomUUID(),
        ...(given
          ? {
              status: 'answered',
              grounded: true,
              answer: '',
              sources: [],
              evidence: [],
              ...given,
            }
          : {
              status: 'not_in_knowledge_base',
              grounded: false,
              answer: NOT_IN_KNOWLEDGE_BASE_ANSWER,
              reason: 'no_evidence',
              sources: [],
              evidence: [],
            }),
        embeddingModel: 'ask-docs-service-mock',
        createdAt: new Date().toISOString(),
      };
      const actor = (
        call.credentials.principal as { actor?: { subject?: string } }
      ).actor?.subject;
      stored.set(response.id, {
        ...response,
        question: request.question,
        userRef,
        scope: request.scope ?? {},
        outdatedSources: [],
        ...(request.threadId ? { threadId: request.threadId } : {}),
        ...(actor ? { askedVia: actor } : {}),
      });
      return response;
    },
    async getAnswer(id: string, call: AskDocsCallOptions) {
      call.signal?.throwIfAborted();
      const record = isAnswerId(id) ? stored.get(id) : undefined;
      return record && record.userRef === userOf(call.credentials)
        ? record
        : undefined;
    },
  };
}

function userOf(credentials: BackstageCredentials): string | undefined {
  const p = credentials.principal as { type?: string; userEntityRef?: string };
  return p?.type === 'user' ? p.userEntityRef : undefined;
}

/** @public */
export namespace askDocsServiceMock {
  /** A service factory of the in-memory fake, for `startTestBackend({ features })`. */
  export const factory = (options?: AskDocsServiceMockOptions) =>
    createServiceFactory({
      service: askDocsServiceRef,
      deps: {},
      factory: () => askDocsServiceMock(options),
    });
  /** A service of jest mock functions, some of them given by `partialImpl`. */
  export const mock = createServiceMock(askDocsServiceRef, () => ({
    ask: jest.fn(),
    getAnswer: jest.fn(),
  }));
}
