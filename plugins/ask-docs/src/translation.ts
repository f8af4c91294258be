import {
  createTranslationRef,
  TranslationFunction,
} from '@backstage/frontend-plugin-api';
import {
  CONTEXT_TOO_LARGE_NOTICE,
  EVIDENCE_ONLY_NOTICE,
  MODEL_FOUND_NO_ANSWER_NOTICE,
  NOT_IN_KNOWLEDGE_BASE_ANSWER,
  REDACTED_ANSWER_TEXT,
  REDACTED_NOTICE,
  UNCITED_ANSWER_NOTICE,
  UNSUPPORTED_ANSWER_NOTICE,
} from '@askdocs/plugin-ask-docs-common';
import {
  INCOMPLETE_STREAM_MESSAGE,
  INVALID_ANSWER_ID_MESSAGE,
  MALFORMED_STREAM_MESSAGE,
} from './api/errors';

/**
 * The plugin's UI texts, with English defaults and a Czech translation that loads when the app's
 * language is `cs`. Apps override any message through the translation API.
 *
 * @alpha
 */
export const askDocsTranslationRef = createTranslationRef({
  id: 'ask-docs',
  messages: {
    page: {
      title: 'Ask the docs',
      subtitle:
        'Answers from TechDocs and the catalog, with the sources they come from',
    },
    askDocsCard: {
      title: 'Ask the docs',
    },
    entityCard: {
      title: "Ask about {{name}}'s docs",
    },
    techDocsAddon: {
      title: 'Ask about these docs',
    },
    askPanel: {
      label: 'Ask a question about the documentation',
      placeholder: 'How do I roll back a release?',
      entityPlaceholder: 'What would you like to know about {{name}}?',
      submit: 'Ask',
      newQuestion: 'New question',
    },
    askState: {
      retrieving: 'Searching the documentation…',
      // The streamed text may still end as "Not an answer" (no citation holds): a draft until then.
      generating:
        'Writing the answer (a draft until its citations are checked)…',
      errorTitle: 'The question could not be answered',
      retry: 'Retry',
      requestId: 'request id {{requestId}}',
    },
    answerView: {
      correction: 'Searched for {{corrected}} instead of {{original}}',
      outdated_one: 'A newer revision of a cited document exists: {{titles}}.',
      outdated_other:
        'Newer revisions of {{count}} cited documents exist: {{titles}}.',
      outdatedAdvice:
        'This answer may be out of date; ask again for a current one.',
      sources: 'Sources',
      evidence: 'Relevant passages',
      // The messages below translate the backend's fixed English texts (the common package's).
      notInKnowledgeBase: {
        title: 'Not in the knowledge base',
        message: NOT_IN_KNOWLEDGE_BASE_ANSWER,
      },
      evidenceOnly: {
        title: 'Not an answer',
        message: EVIDENCE_ONLY_NOTICE,
      },
      // Why there is no model answer, by the response's `reason` (no_model and model_failed
      // read evidenceOnly.message, no_evidence notInKnowledgeBase.message).
      reasons: {
        modelFoundNoAnswer: MODEL_FOUND_NO_ANSWER_NOTICE,
        contextTooLarge: CONTEXT_TOO_LARGE_NOTICE,
        uncitedAnswer: UNCITED_ANSWER_NOTICE,
        unsupportedAnswer: UNSUPPORTED_ANSWER_NOTICE,
        // calls: the limit; window: its sliding window ("24 hours"), in the app's language.
        // One literal (continued lines), so that its placeholders are typed.
        quotaExceeded: `Not an answer: you have reached this portal's limit of language model \
answers ({{calls}} / {{window}}), so the model was not asked. It answers again as your earlier \
answers leave that period. These are the most relevant passages from the documentation.`,
      },
      redacted: {
        title: 'Answer redacted',
        message: REDACTED_ANSWER_TEXT,
        notice: REDACTED_NOTICE,
      },
    },
    feedback: {
      question: 'Was this helpful?',
      thanks: 'Thanks for your feedback.',
      helpful: 'Helpful',
      notHelpful: 'Not helpful',
      // Which rating the answer has, also for one reloaded from the history.
      ratedHelpful: 'You rated this helpful.',
      ratedNotHelpful: 'You rated this not helpful.',
      notSaved: 'Feedback was not saved: {{error}}',
    },
    historyList: {
      title: 'Your previous questions',
      empty: 'No questions yet.',
      showOlder: 'Show older questions',
      askedVia: 'asked through {{actor}}',
      status: {
        answered: 'Answered',
        notInKnowledgeBase: 'Not in the knowledge base',
        evidenceOnly: 'Evidence only',
      },
    },
    ingestionPanel: {
      title: 'Knowledge base ingestion',
      subheader: 'Visible to administrators',
      inProgress: 'Ingestion run in progress',
      noRun: 'No ingestion run yet.',
      run: 'Run {{runId}}: {{status}}',
      status: {
        idle: 'idle',
        running: 'running',
        succeeded: 'succeeded',
        failed: 'failed',
      },
      trigger: {
        schedule: '(scheduled)',
        manual: '(manual)',
      },
      startedAt: 'started {{date}}',
      finishedAt: 'finished {{date}}',
      counters: {
        entitiesDone: 'Entities',
        pagesDone: 'Pages done',
        pagesSkipped: 'Pages skipped',
        chunksWritten: 'Chunks written',
        chunksEmbedded: 'Chunks embedded',
        chunksDeleted: 'Chunks deleted',
        chunksReanalysed: 'Chunks re-analysed',
        errors: 'Errors',
      },
      start: 'Start ingestion run',
      refresh: 'Refresh',
    },
    searchAnswer: {
      title: 'Answer from the docs',
      ask: 'Ask the docs: “{{term}}”',
    },
    searchResult: {
      ask: 'Ask the docs',
    },
    errors: {
      requestFailed: 'Request failed ({{status}})',
      incompleteStream: INCOMPLETE_STREAM_MESSAGE,
      malformedStream: MALFORMED_STREAM_MESSAGE,
      invalidAnswerId: INVALID_ANSWER_ID_MESSAGE,
    },
  },
  translations: {
    cs: () => import('./translations/cs'),
  },
});

/** The `t` of useTranslationRef(askDocsTranslationRef), for helpers that build texts. */
export type AskDocsTranslate = TranslationFunction<
  typeof askDocsTranslationRef.T
>;
