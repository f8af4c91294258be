import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import {
  mockCredentials,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { NOT_IN_KNOWLEDGE_BASE_ANSWER } from '@askdocs/plugin-ask-docs-common';
import express from 'express';
import request from 'supertest';
import { askDocsServiceRef } from '../askDocsServiceRef';
import { askDocsServiceMock } from './askDocsServiceMock';

const alice = mockCredentials.user('user:default/alice');
const bob = mockCredentials.user('user:default/bob');

describe('askDocsServiceMock', () => {
  const rollback = {
    answer: 'Run deploy rollback [Release process].',
    sources: [],
  };

  it('answers the questions it was given, and "not in the knowledge base" to others', async () => {
    const service = askDocsServiceMock({
      answers: { 'How do I roll back?': rollback },
    });
    const known = await service.ask(
      { question: 'How do I roll back?' },
      { credentials: alice },
    );
    expect(known).toMatchObject({
      status: 'answered',
      grounded: true,
      answer: rollback.answer,
    });
    const unknown = await service.ask(
      { question: 'Who approves a release?' },
      { credentials: alice },
    );
    expect(unknown).toMatchObject({
      status: 'not_in_knowledge_base',
      grounded: false,
      answer: NOT_IN_KNOWLEDGE_BASE_ANSWER,
      reason: 'no_evidence',
    });
    expect(known.id).not.toBe(unknown.id);
  });

  it('refuses a service’s credentials as the real service does', async () => {
    const service = askDocsServiceMock();
    await expect(
      service.ask(
        { question: 'q' },
        { credentials: mockCredentials.service() },
      ),
    ).rejects.toMatchObject({
      name: 'NotAllowedError',
      message: expect.stringMatching(/only on behalf of a user/),
    });
  });

  it('gives an answer back to its asker only, not for an id that is no answer’s', async () => {
    const service = askDocsServiceMock({ answers: () => rollback });
    const { id } = await service.ask(
      { question: 'How do I roll back?', scope: { entityRefs: ['x:y/z'] } },
      { credentials: alice },
    );
    expect(await service.getAnswer(id, { credentials: alice })).toMatchObject({
      id,
      question: 'How do I roll back?',
      userRef: 'user:default/alice',
      scope: { entityRefs: ['x:y/z'] },
    });
    expect(await service.getAnswer(id, { credentials: bob })).toBeUndefined();
    expect(
      await service.getAnswer('..', { credentials: alice }),
    ).toBeUndefined();
  });

  it('rejects with an aborted signal’s reason', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(
      askDocsServiceMock().ask(
        { question: 'q' },
        { credentials: alice, signal: controller.signal },
      ),
    ).rejects.toThrow('gone');
  });

  it('stands in for askDocsServiceRef in a test backend', async () => {
    // A plugin as an adopter writes one: it asks on behalf of the user who called it.
    const helper = createBackendPlugin({
      pluginId: 'helper',
      register(env) {
        env.registerInit({
          deps: {
            askDocs: askDocsServiceRef,
            httpAuth: coreServices.httpAuth,
            router: coreServices.httpRouter,
          },
          async init({ askDocs, httpAuth, router }) {
            const app = express.Router();
            app.use(express.json());
            app.post('/help', async (req, res) => {
              const credentials = await httpAuth.credentials(req, {
                allow: ['user'],
              });
              const answer = await askDocs.ask(
                { question: req.body.question },
                { credentials },
              );
              res.json({ status: answer.status, text: answer.answer });
            });
            router.use(app);
          },
        });
      },
    });
    const backend = await startTestBackend({
      features: [
        helper,
        askDocsServiceMock.factory({
          answers: { 'How do I roll back?': rollback },
        }),
      ],
    });
    try {
      const res = await request(backend.server)
        .post('/api/helper/help')
        .set('Authorization', mockCredentials.user.header())
        .send({ question: 'How do I roll back?' });
      expect(res.body).toEqual({ status: 'answered', text: rollback.answer });
    } finally {
      await backend.stop();
    }
  });

  it('offers jest mock functions with a partial implementation', async () => {
    const mock = askDocsServiceMock.mock({
      getAnswer: async () => undefined,
    });
    expect(await mock.getAnswer('a', { credentials: alice })).toBeUndefined();
    expect(mock.getAnswer).toHaveBeenCalledTimes(1);
    expect(jest.isMockFunction(mock.ask)).toBe(true);
  });
});
