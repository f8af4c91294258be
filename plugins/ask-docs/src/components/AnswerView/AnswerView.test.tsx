import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import type { TestAppOptions } from '@backstage/test-utils';
import { entityRouteRef } from '@backstage/plugin-catalog-react';
import {
  EVIDENCE_ONLY_NOTICE,
  NOT_IN_KNOWLEDGE_BASE_ANSWER,
  REDACTED_ANSWER_TEXT,
  REDACTED_NOTICE,
} from '@askdocs/plugin-ask-docs-common';
import { askDocsApiRef } from '../../api/AskDocsApi';
import { techdocsReaderRouteRef } from '../../routes';
import {
  evidenceOnlyResponse,
  groundedResponse,
  notInKbResponse,
  recordOf,
} from '../../testUtils/fixtures';
import { mockAskDocsApi } from '../../testUtils/mockApi';
import { AnswerView, answerKind } from './AnswerView';
import type { AskResponse } from '@askdocs/plugin-ask-docs-common';

async function renderView(
  response: AskResponse,
  api = mockAskDocsApi(),
  options?: TestAppOptions,
) {
  await renderInTestApp(
    <TestApiProvider apis={[[askDocsApiRef, api]]}>
      <AnswerView response={response} />
    </TestApiProvider>,
    options,
  );
  return api;
}

const STATES = [
  'ask-docs-state-grounded',
  'ask-docs-state-not-in-kb',
  'ask-docs-state-evidence-only',
];

function expectOnlyState(testId: string) {
  for (const id of STATES) {
    if (id === testId) expect(screen.getByTestId(id)).toBeInTheDocument();
    else expect(screen.queryByTestId(id)).not.toBeInTheDocument();
  }
}

/** Inside the element with `testId`, the link named `name`. */
function linkIn(testId: string, name: string) {
  return within(screen.getByTestId(testId)).getByRole('link', { name });
}

/** Inside the element with `testId`, the link named `name` leads to `href`. */
function expectLink(testId: string, name: string, href: string) {
  const link = within(screen.getByTestId(testId)).getByRole('link', { name });
  expect(link).toHaveAttribute('href', href);
}

/** A grounded answer whose second source is an entity page (no TechDocs). */
const citingEntityPage: AskResponse = {
  ...groundedResponse,
  sources: [
    ...groundedResponse.sources,
    {
      ...groundedResponse.sources[0],
      title: 'payments',
      sectionPath: 'payments',
      url: '/catalog/default/component/payments',
    },
  ],
};

describe('AnswerView', () => {
  it('shows a grounded answer with linked markers and the source list', async () => {
    await renderView(groundedResponse);
    expectOnlyState('ask-docs-state-grounded');

    const rollback = '/docs/default/component/payments/release/#rollback';
    expectLink('ask-docs-answer-text', 'Release process › Rollback', rollback);
    expectLink('ask-docs-sources', 'Release process', rollback);
    const sources = screen.getByTestId('ask-docs-sources');
    expect(sources).toHaveTextContent('› Rollback');
    expect(sources).toHaveTextContent('Run release rollback');
  });

  it('renders an unmatched [Unknown] marker as plain text, not a link', async () => {
    await renderView(groundedResponse);
    const text = screen.getByTestId('ask-docs-answer-text');
    expect(text).toHaveTextContent('See also [Unknown].');
    expect(within(text).queryByRole('link', { name: /Unknown/ })).toBeNull();
    expect(within(text).getAllByRole('link')).toHaveLength(1);
  });

  it('shows the not-in-knowledge-base state without sources or answer prose', async () => {
    await renderView(notInKbResponse);
    expectOnlyState('ask-docs-state-not-in-kb');
    expect(screen.getByText('Not in the knowledge base')).toBeInTheDocument();
    expect(screen.getByTestId('ask-docs-state-not-in-kb')).toHaveTextContent(
      NOT_IN_KNOWLEDGE_BASE_ANSWER,
    );
    expect(screen.queryByTestId('ask-docs-sources')).toBeNull();
    expect(screen.queryByTestId('ask-docs-answer-text')).toBeNull();
  });

  it('shows a not-in-knowledge-base reply other than the fixed one as sent', async () => {
    await renderView({ ...notInKbResponse, answer: 'Ask the platform team.' });
    const state = screen.getByTestId('ask-docs-state-not-in-kb');
    expect(state).toHaveTextContent('Ask the platform team.');
    expect(state).not.toHaveTextContent(NOT_IN_KNOWLEDGE_BASE_ANSWER);
  });

  it('explains an evidence-only response without a notice of its own', async () => {
    await renderView({ ...evidenceOnlyResponse, notice: undefined });
    expect(
      screen.getByTestId('ask-docs-state-evidence-only'),
    ).toHaveTextContent(EVIDENCE_ONLY_NOTICE);
  });

  it(`words a quota hold by its reason and limit, and shows an unknown reason's notice \
as sent`, async () => {
    const backendNotice =
      'Not an answer: you have had 20 language model answers in the last hour.';
    await renderView({
      ...evidenceOnlyResponse,
      notice: backendNotice,
      reason: 'quota_exceeded',
      quota: { calls: 20, windowSeconds: 3_600 },
    });
    const held = screen.getByTestId('ask-docs-state-evidence-only');
    expect(held).toHaveTextContent(
      "you have reached this portal's limit of language model answers (20 / 1 hour)",
    );
    expect(held).not.toHaveTextContent(backendNotice);
    cleanup();

    // Without the limit (a backend that did not send it), the notice as sent.
    await renderView({
      ...evidenceOnlyResponse,
      notice: backendNotice,
      reason: 'quota_exceeded',
    });
    expect(
      screen.getByTestId('ask-docs-state-evidence-only'),
    ).toHaveTextContent(backendNotice);
    cleanup();

    // A reason this UI does not know yet (a newer backend): the notice, as sent.
    await renderView({
      ...evidenceOnlyResponse,
      notice: backendNotice,
      reason: 'something_new' as any,
    });
    expect(
      screen.getByTestId('ask-docs-state-evidence-only'),
    ).toHaveTextContent(backendNotice);
  });

  it('labels evidence-only as "Not an answer" and links the passages', async () => {
    await renderView(evidenceOnlyResponse);
    expectOnlyState('ask-docs-state-evidence-only');
    const state = screen.getByTestId('ask-docs-state-evidence-only');
    expect(within(state).getByText('Not an answer')).toBeInTheDocument();
    expect(state).toHaveTextContent('The model is unavailable right now.');
    expectLink(
      'ask-docs-evidence',
      'Deployment',
      '/docs/default/component/payments/deploy/#canary',
    );
    expect(screen.queryByTestId('ask-docs-answer-text')).toBeNull();
  });

  it('never presents ungrounded model text as an answer', async () => {
    const ungrounded = { ...groundedResponse, grounded: false };
    expect(answerKind(ungrounded)).toBe('evidence-only');
    await renderView(ungrounded);
    expectOnlyState('ask-docs-state-evidence-only');
    expect(screen.queryByText(/Roll back with the release tool/)).toBeNull();
  });

  it('shows spelling corrections', async () => {
    await renderView({
      ...groundedResponse,
      corrections: [{ from: 'rollbak', to: 'rollback' }],
    });
    expect(screen.getByTestId('ask-docs-corrections')).toHaveTextContent(
      'Searched for rollback instead of rollbak',
    );
  });

  it('warns when a cited document has a newer revision', async () => {
    await renderView(
      recordOf(groundedResponse, {
        outdatedSources: [
          {
            documentId: 'doc-release',
            title: 'Release process',
            answeredRevision: 'r1',
            currentRevision: 'r2',
          },
        ],
      }),
    );
    expect(screen.getByTestId('ask-docs-outdated')).toHaveTextContent(
      'A newer revision of a cited document exists: Release process',
    );
  });

  it('counts the cited documents when several have newer revisions', async () => {
    await renderView(
      recordOf(groundedResponse, {
        outdatedSources: ['Release process', 'Deployment'].map(title => ({
          documentId: `doc-${title}`,
          title,
          answeredRevision: 'r1',
          currentRevision: 'r2',
        })),
      }),
    );
    expect(screen.getByTestId('ask-docs-outdated')).toHaveTextContent(
      'Newer revisions of 2 cited documents exist: Release process, Deployment. ' +
        'This answer may be out of date; ask again for a current one.',
    );
  });

  it('does not warn for a record whose sources are current', async () => {
    await renderView(recordOf(groundedResponse));
    expect(screen.queryByTestId('ask-docs-outdated')).toBeNull();
    expect(screen.queryByTestId('ask-docs-redacted')).toBeNull();
  });

  it('links citations and sources where the app mounts TechDocs and the catalog', async () => {
    await renderView(citingEntityPage, undefined, {
      mountedRoutes: {
        '/tech/:namespace/:kind/:name': techdocsReaderRouteRef,
        '/software/:namespace/:kind/:name': entityRouteRef,
      },
    });
    const rollback = '/tech/default/component/payments/release/#rollback';
    expect(
      linkIn('ask-docs-answer-text', 'Release process › Rollback'),
    ).toHaveAttribute('href', rollback);
    expect(linkIn('ask-docs-sources', 'Release process')).toHaveAttribute(
      'href',
      rollback,
    );
    expect(linkIn('ask-docs-sources', 'payments')).toHaveAttribute(
      'href',
      '/software/default/component/payments',
    );
  });

  it('links evidence to the mounted TechDocs reader too', async () => {
    await renderView(evidenceOnlyResponse, undefined, {
      mountedRoutes: { '/tech/:namespace/:kind/:name': techdocsReaderRouteRef },
    });
    expect(linkIn('ask-docs-evidence', 'Deployment')).toHaveAttribute(
      'href',
      '/tech/default/component/payments/deploy/#canary',
    );
  });

  it("keeps the backend's TechDocs links where only the catalog's route is mounted", async () => {
    await renderView(citingEntityPage, undefined, {
      mountedRoutes: { '/software/:namespace/:kind/:name': entityRouteRef },
    });
    const rollback = groundedResponse.sources[0].url;
    expect(
      linkIn('ask-docs-answer-text', 'Release process › Rollback'),
    ).toHaveAttribute('href', rollback);
    expect(linkIn('ask-docs-sources', 'Release process')).toHaveAttribute(
      'href',
      rollback,
    );
    expect(linkIn('ask-docs-sources', 'payments')).toHaveAttribute(
      'href',
      '/software/default/component/payments',
    );
  });

  it('shows the redaction notice on a grounded answer that lost a source', async () => {
    await renderView(
      recordOf(
        { ...groundedResponse, notice: REDACTED_NOTICE },
        {
          redacted: {
            sources: 1,
            evidence: 0,
            corrections: 0,
            answerText: false,
          },
        },
      ),
    );
    expectOnlyState('ask-docs-state-grounded');
    expect(screen.getByTestId('ask-docs-redacted')).toHaveTextContent(
      REDACTED_NOTICE,
    );
  });

  it('labels a redacted answer text as redacted, not as "Not an answer"', async () => {
    // As the backend replays it: the text replaced, no longer grounded, its notice the redaction.
    await renderView(
      recordOf(
        {
          ...groundedResponse,
          grounded: false,
          answer: REDACTED_ANSWER_TEXT,
          notice: REDACTED_NOTICE,
        },
        {
          redacted: {
            sources: 0,
            evidence: 0,
            corrections: 0,
            answerText: true,
          },
        },
      ),
    );
    const state = screen.getByTestId('ask-docs-state-evidence-only');
    expect(within(state).getByText('Answer redacted')).toBeInTheDocument();
    expect(within(state).queryByText('Not an answer')).toBeNull();
    expect(state).toHaveTextContent(REDACTED_ANSWER_TEXT);
    expect(screen.getByTestId('ask-docs-redacted')).toHaveTextContent(
      REDACTED_NOTICE,
    );
    // The notice is shown once, not again as the evidence state's explanation.
    expect(screen.getAllByText(REDACTED_NOTICE)).toHaveLength(1);
  });

  it('sends thumbs-down feedback for this answer once', async () => {
    const api = await renderView(groundedResponse);
    const up = screen.getByRole('button', { name: 'Helpful' });
    const down = screen.getByRole('button', { name: 'Not helpful' });
    expect(screen.getByTestId('ask-docs-feedback')).toHaveTextContent(
      'Was this helpful?',
    );
    expect(up).toHaveAttribute('aria-pressed', 'false');
    expect(up).toHaveAttribute('aria-disabled', 'false');

    await userEvent.click(down);
    expect(api.sendFeedback).toHaveBeenCalledTimes(1);
    expect(api.sendFeedback).toHaveBeenCalledWith('a-1', { rating: 'down' });
    expect(
      await screen.findByText('Thanks for your feedback.'),
    ).toBeInTheDocument();
    const feedback = screen.getByTestId('ask-docs-feedback');
    expect(feedback).toHaveTextContent('You rated this not helpful.');
    // The chosen one is shown as chosen (pressed, filled), the other not.
    expect(down).toHaveAttribute('aria-pressed', 'true');
    expect(up).toHaveAttribute('aria-pressed', 'false');
    expect(within(down).getByTestId('ask-docs-rated')).toBeInTheDocument();
    expect(within(up).queryByTestId('ask-docs-rated')).toBeNull();
    // Marked unavailable but still focusable, so a keyboard user can read which was chosen.
    for (const button of [up, down]) {
      expect(button).not.toBeDisabled();
      expect(button).toHaveAttribute('aria-disabled', 'true');
      button.focus();
      expect(button).toHaveFocus();
    }
    // Clicking again sends nothing more.
    await userEvent.click(up);
    await userEvent.click(down);
    expect(api.sendFeedback).toHaveBeenCalledTimes(1);
    expect(down).toHaveAttribute('aria-pressed', 'true');
  });

  it("shows a reloaded answer's rating and sends no other", async () => {
    const api = await renderView(
      recordOf(groundedResponse, { feedback: { rating: 'up' } }),
    );
    const up = screen.getByRole('button', { name: 'Helpful' });
    const down = screen.getByRole('button', { name: 'Not helpful' });
    const feedback = screen.getByTestId('ask-docs-feedback');
    expect(feedback).toHaveTextContent('You rated this helpful.');
    // Thanks for a rating given now, not for one stored before.
    expect(feedback).not.toHaveTextContent('Thanks');
    expect(feedback).not.toHaveTextContent('Was this helpful?');
    expect(up).toHaveAttribute('aria-pressed', 'true');
    expect(within(up).getByTestId('ask-docs-rated')).toBeInTheDocument();
    expect(down).toHaveAttribute('aria-pressed', 'false');
    expect(down).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(down);
    expect(api.sendFeedback).not.toHaveBeenCalled();
    expect(up).toHaveAttribute('aria-pressed', 'true');
  });

  it('does not send twice while the first rating is being sent', async () => {
    let finish: () => void = () => {};
    const api = mockAskDocsApi({
      sendFeedback: jest.fn(
        () =>
          new Promise<void>(resolve => {
            finish = resolve;
          }),
      ),
    });
    await renderView(groundedResponse, api);
    const up = screen.getByRole('button', { name: 'Helpful' });
    await userEvent.click(up);
    expect(up).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(up);
    await userEvent.click(screen.getByRole('button', { name: 'Not helpful' }));
    expect(api.sendFeedback).toHaveBeenCalledTimes(1);
    await act(async () => finish());
    expect(
      await screen.findByText('You rated this helpful.', { exact: false }),
    ).toBeInTheDocument();
  });

  it.each([
    ['not in the knowledge base', notInKbResponse, 1],
    ['evidence only', evidenceOnlyResponse, 1],
    [
      'outdated and redacted',
      recordOf(
        { ...groundedResponse, notice: REDACTED_NOTICE },
        {
          outdatedSources: [
            {
              documentId: 'doc-release',
              title: 'Release process',
              answeredRevision: 'r1',
              currentRevision: 'r2',
            },
          ],
          redacted: {
            sources: 1,
            evidence: 0,
            corrections: 0,
            answerText: false,
          },
        },
      ),
      2,
    ],
  ])(
    'shows the notices of an answer %s as notes, not alerts that interrupt',
    async (_, response, notes) => {
      await renderView(response);
      expect(screen.getAllByRole('note')).toHaveLength(notes);
      expect(screen.queryByRole('alert')).toBeNull();
    },
  );

  it('keeps feedback buttons usable when sending fails', async () => {
    const api = mockAskDocsApi({
      sendFeedback: jest.fn(async () => {
        throw new Error('backend down');
      }),
    });
    await renderView(groundedResponse, api);
    await userEvent.click(screen.getByRole('button', { name: 'Helpful' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('backend down');
    expect(screen.getByRole('button', { name: 'Helpful' })).toBeEnabled();
  });
});
