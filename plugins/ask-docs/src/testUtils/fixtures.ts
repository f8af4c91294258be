import type {
  AnswerRecord,
  AskResponse,
} from '@askdocs/plugin-ask-docs-common';
import {
  EVIDENCE_ONLY_NOTICE,
  NOT_IN_KNOWLEDGE_BASE_ANSWER,
} from '@askdocs/plugin-ask-docs-common';

export const groundedResponse: AskResponse = {
  id: 'a-1',
  status: 'answered',
  grounded: true,
  answer:
    'Roll back with the release tool [Release process › Rollback]. See also [Unknown].',
  sources: [
    {
      title: 'Release process',
      documentId: 'doc-release',
      chunkId: 'chunk-rollback',
      entityRef: 'component:default/payments',
      sectionPath: 'Release process › Rollback',
      anchor: 'rollback',
      url: '/docs/default/component/payments/release/#rollback',
      snippet: 'Run release rollback <version> to restore the previous build.',
      revision: 'r1',
    },
  ],
  evidence: [],
  embeddingModel: 'test-embedder',
  llmModel: 'test-llm',
  createdAt: '2026-12-03T10:00:00.000Z',
};

export const notInKbResponse: AskResponse = {
  id: 'a-2',
  status: 'not_in_knowledge_base',
  grounded: false,
  answer: NOT_IN_KNOWLEDGE_BASE_ANSWER,
  sources: [],
  evidence: [],
  embeddingModel: 'test-embedder',
  createdAt: '2026-12-03T10:01:00.000Z',
};

export const evidenceOnlyResponse: AskResponse = {
  id: 'a-3',
  status: 'evidence_only',
  grounded: false,
  answer: EVIDENCE_ONLY_NOTICE,
  notice: 'The model is unavailable right now.',
  sources: [],
  evidence: [
    {
      chunkId: 'chunk-canary',
      documentId: 'doc-deploy',
      entityRef: 'component:default/payments',
      title: 'Deployment',
      sectionPath: 'Deployment › Canary',
      anchor: 'canary',
      url: '/docs/default/component/payments/deploy/#canary',
      snippet: 'Canary releases receive five percent of traffic.',
      revision: 'r3',
      score: 0.8,
    },
  ],
  embeddingModel: 'test-embedder',
  createdAt: '2026-12-03T10:02:00.000Z',
};

export function recordOf(
  response: AskResponse,
  extra: Partial<AnswerRecord> = {},
): AnswerRecord {
  return {
    ...response,
    question: 'How do I roll back?',
    userRef: 'user:default/guest',
    scope: {},
    outdatedSources: [],
    ...extra,
  };
}
