import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { InputError, NotAllowedError } from '@backstage/errors';
import { AskService } from '../service/AskService';
import { registerAskDocsActions } from './askDocsActions';

/*
 * The actions answer agents the way the REST API answers clients: errors written for the caller
 * (bad input, a denied permission) reach it as they are; any other failure is logged with a
 * request id and the caller gets only that id, never the message (hosts, SQL, paths).
 */
describe('ask-docs actions', () => {
  const INTERNAL = 'connect ECONNREFUSED 10.1.2.3:5432 (ask_docs_answers)';
  let failure: Error;
  const askService = {
    async ask() {
      throw failure;
    },
    async search() {
      throw failure;
    },
  } as unknown as AskService;

  function register() {
    const actions = new Map<string, any>();
    const logger = mockServices.logger.mock();
    registerAskDocsActions({
      actionsRegistry: { register: (a: any) => actions.set(a.name, a) } as any,
      askService,
      maxQuestionChars: 200,
      logger,
    });
    const call = (name: string, input: object) =>
      actions.get(name)!.action({
        input,
        credentials: mockCredentials.user('user:default/alice'),
        logger,
      });
    return { call, logger };
  }

  it.each([
    ['ask', { question: 'How do I roll back?' }],
    ['search', { query: 'roll back' }],
  ])(
    '%s: an internal failure reaches the caller as a request id only',
    async (name, input) => {
      const { call, logger } = register();
      failure = new Error(INTERNAL);
      const error = await call(name, input).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error.message).toMatch(
        /^Internal error \(requestId [0-9a-f-]{36}\)$/,
      );
      expect(error.message).not.toMatch(/10\.1\.2\.3|ECONNREFUSED|ask_docs/);
      // The details and the same id are in the log.
      const requestId = /requestId ([0-9a-f-]{36})/.exec(error.message)![1];
      expect(logger.child).toHaveBeenCalledWith({ requestId });
    },
  );

  it.each([
    new InputError('The question has too many distinct search terms'),
    new NotAllowedError('You may not ask the docs'),
  ])('passes an error written for the caller as it is: %s', async written => {
    const { call } = register();
    failure = written;
    await expect(call('ask', { question: 'How do I roll back?' })).rejects.toBe(
      written,
    );
    await expect(call('search', { query: 'roll back' })).rejects.toBe(written);
  });
});
