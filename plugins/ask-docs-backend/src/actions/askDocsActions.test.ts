import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { actionsRegistryServiceMock } from '@backstage/backend-test-utils/alpha';
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
      auditor: mockServices.auditor.mock(),
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

  it('search centres snippets on what was searched for, not on the greeting', async () => {
    const actionsRegistry = actionsRegistryServiceMock();
    registerAskDocsActions({
      actionsRegistry,
      askService: {
        search: async () => ({
          chunks: [
            {
              chunkId: 'c1',
              documentId: 'd1',
              entityRef: 'component:default/on-call',
              title: 'On call',
              sectionPath: 'On call › Pager',
              anchor: 'pager',
              url: '/docs/default/component/on-call/#pager',
              revision: 'r1',
              contentHash: 'h1',
              rrf: 1,
              text:
                'Ask the team channel for quick help with any question. ' +
                'Pages escalate after fifteen minutes without acknowledgement. '.repeat(
                  8,
                ) +
                'To hand over the pager, run pager handover.',
            },
          ],
          corrections: [],
          // The question without "Hi team, quick question, could anyone help?".
          searchedFor: 'How do I hand over the pager?',
        }),
      } as unknown as AskService,
      auditor: mockServices.auditor.mock(),
      maxQuestionChars: 200,
      logger: mockServices.logger.mock(),
    });
    const { output } = await actionsRegistry.invoke({
      id: 'test:search',
      input: {
        query:
          'Hi team, quick question, could anyone help? How do I hand over the pager?',
      },
      credentials: mockCredentials.user(),
    });
    expect((output as any).chunks[0].snippet).toMatch(
      /^To hand over the pager/,
    );
  });

  it('makes each call an audit event naming the principal and the plugin between', async () => {
    const auditor = mockServices.auditor.mock();
    const actionsRegistry = actionsRegistryServiceMock();
    registerAskDocsActions({
      actionsRegistry,
      askService: {
        ask: async () => ({
          id: 'a1',
          status: 'answered',
          grounded: true,
          answer: 'Roll back [Releasing].',
          sources: [],
          evidence: [],
        }),
        search: async () => ({ chunks: [], corrections: [], searchedFor: '' }),
      } as unknown as AskService,
      auditor,
      maxQuestionChars: 200,
      logger: mockServices.logger.mock(),
    });
    // An MCP server calling for alice: an on-behalf-of token's credentials.
    const credentials = {
      $$type: '@backstage/BackstageCredentials',
      principal: {
        type: 'user',
        userEntityRef: 'user:default/alice',
        actor: { type: 'service', subject: 'plugin:mcp-actions' },
      },
    } as any;
    await actionsRegistry.invoke({
      id: 'test:ask',
      input: { question: 'How do I roll back the zebrafoo release?' },
      credentials,
    });
    await actionsRegistry.invoke({
      id: 'test:search',
      input: { query: 'zebrafoo' },
      credentials,
    });
    const caller = {
      principal: 'user:default/alice',
      via: 'plugin:mcp-actions',
    };
    expect(auditor.createEvent.mock.calls.map(([o]) => o)).toEqual([
      { eventId: 'ask', meta: { queryType: 'action', ...caller } },
      { eventId: 'search', meta: { queryType: 'action', ...caller } },
    ]);
    const [ask, search] = await Promise.all(
      auditor.createEvent.mock.results.map(r => r.value),
    );
    expect(ask.success).toHaveBeenCalledWith({
      meta: { answerId: 'a1', status: 'answered', grounded: true },
    });
    expect(search.success).toHaveBeenCalledWith({ meta: { results: 0 } });
    expect(JSON.stringify(auditor.createEvent.mock.calls)).not.toMatch(
      /zebrafoo/,
    );
  });

  describe('as the registry lists and validates them', () => {
    const chunk = (i: number) => ({
      chunkId: `c${i}`,
      documentId: `d${i}`,
      entityRef: 'component:default/release-guide',
      title: 'Releasing',
      sectionPath: 'Releasing › Freeze',
      anchor: 'freeze',
      url: '/docs/default/component/release-guide/#freeze',
      revision: 'r1',
      text: 'Releases are frozen on Fridays.',
      contentHash: `h${i}`,
      rrf: 1 / (i + 1),
    });
    function registry(maxSearchResults?: number) {
      const actionsRegistry = actionsRegistryServiceMock();
      registerAskDocsActions({
        actionsRegistry,
        askService: {
          // Retrieval keeps topK chunks: here 3.
          search: async () => ({
            chunks: [0, 1, 2].map(chunk),
            corrections: [],
            searchedFor: 'release',
          }),
        } as unknown as AskService,
        auditor: mockServices.auditor.mock(),
        maxQuestionChars: 200,
        logger: mockServices.logger.mock(),
        maxSearchResults,
      });
      return actionsRegistry;
    }
    const action = async (r: ReturnType<typeof registry>, name: string) =>
      (await r.list()).actions.find(a => a.name === name)!;

    it('ask is not read-only: it writes an audit record and may call a paid model', async () => {
      // MCP clients run read-only tools without asking the user.
      expect((await action(registry(), 'ask')).attributes).toEqual({
        readOnly: false,
        destructive: false,
        idempotent: false,
      });
      expect((await action(registry(), 'search')).attributes).toMatchObject({
        readOnly: true,
        idempotent: true,
      });
    });

    it('search says it returns no more than retrieval keeps, whatever the limit', async () => {
      const r = registry(3);
      const search = await action(r, 'search');
      expect((search.schema.input as any).properties.limit).toMatchObject({
        type: 'integer',
        minimum: 1,
        maximum: 50,
      });
      expect(search.description).toMatch(
        /at most 3 passages, whatever the limit/,
      );
      expect((search.schema.input as any).properties.limit.description).toMatch(
        /at most 3 are returned/,
      );
      const invoke = (input: object) =>
        r.invoke({
          id: search.id,
          input: { query: 'release', ...input },
          credentials: mockCredentials.user(),
        });
      // A larger limit is accepted, and cut to what retrieval keeps, as the tool says.
      expect(((await invoke({ limit: 20 })).output as any).chunks).toHaveLength(
        3,
      );
      await expect(invoke({ limit: 51 })).rejects.toMatchObject({
        name: 'InputError',
      });
      expect(((await invoke({ limit: 2 })).output as any).chunks).toHaveLength(
        2,
      );
      expect(((await invoke({})).output as any).chunks).toHaveLength(3);
      // Without the option: askDocs.retrieval.topK's default.
      expect(
        (await action(registry(), 'search')).schema.input as any,
      ).toMatchObject({
        properties: {
          limit: { description: expect.stringMatching(/at most 8 /) },
        },
      });
    });
  });
});
