import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { ResponseError } from '@backstage/errors';
import type { IngestionProgress } from '@askdocs/plugin-ask-docs-common';
import { askDocsApiRef } from '../../api/AskDocsApi';
import { mockAskDocsApi } from '../../testUtils/mockApi';
import { IngestionProgressPanel } from './IngestionProgressPanel';

const progress: IngestionProgress = {
  runId: 3,
  status: 'succeeded',
  trigger: 'manual',
  entitiesDone: 4,
  pagesDone: 17,
  pagesSkipped: 2,
  chunksWritten: 123,
  chunksEmbedded: 120,
  chunksDeleted: 5,
  chunksReanalysed: 40,
  errors: [
    { entityRef: 'component:default/broken', message: 'mkdocs.yml missing' },
  ],
};

async function forbidden() {
  return ResponseError.fromResponse(
    new Response(
      JSON.stringify({
        error: { name: 'NotAllowedError', message: 'admins only' },
        response: { statusCode: 403 },
      }),
      { status: 403, headers: { 'Content-Type': 'application/json' } },
    ),
  );
}

describe('IngestionProgressPanel', () => {
  it('shows pages, chunks and errors to admins', async () => {
    const api = mockAskDocsApi({
      getIngestionProgress: jest.fn(async () => progress),
    });
    await renderInTestApp(
      <TestApiProvider apis={[[askDocsApiRef, api]]}>
        <IngestionProgressPanel />
      </TestApiProvider>,
    );
    const panel = await screen.findByTestId('ask-docs-ingestion');
    expect(panel).toHaveTextContent('Run 3: succeeded (manual)');
    expect(
      screen.getByTestId('ask-docs-ingestion-pages-done'),
    ).toHaveTextContent('17');
    expect(
      screen.getByTestId('ask-docs-ingestion-chunks-written'),
    ).toHaveTextContent('123');
    expect(
      screen.getByTestId('ask-docs-ingestion-chunks-re-analysed'),
    ).toHaveTextContent('40');
    expect(screen.getByTestId('ask-docs-ingestion-errors')).toHaveTextContent(
      '1',
    );
    expect(
      screen.getByTestId('ask-docs-ingestion-error-list'),
    ).toHaveTextContent('mkdocs.yml missing');
  });

  it('renders nothing for a 403', async () => {
    const error = await forbidden();
    const api = mockAskDocsApi({
      getIngestionProgress: jest.fn(async () => {
        throw error;
      }),
    });
    const { container } = await renderInTestApp(
      <TestApiProvider apis={[[askDocsApiRef, api]]}>
        <div data-testid="host">
          <IngestionProgressPanel />
        </div>
      </TestApiProvider>,
    );
    await waitFor(() => expect(api.getIngestionProgress).toHaveBeenCalled());
    expect(screen.queryByTestId('ask-docs-ingestion')).toBeNull();
    expect(
      container.querySelector('[data-testid="host"]'),
    ).toBeEmptyDOMElement();
  });

  it('renders nothing, not even the start button, when the first load fails (502)', async () => {
    const failed = ResponseError.fromResponse(
      new Response('<html>Bad Gateway</html>', {
        status: 502,
        statusText: 'Bad Gateway',
      }),
    ).then(error => Promise.reject(error));
    failed.catch(() => {});
    const api = mockAskDocsApi({
      getIngestionProgress: jest.fn(() => failed),
    });
    const { container } = await renderInTestApp(
      <TestApiProvider apis={[[askDocsApiRef, api]]}>
        <div data-testid="host">
          <IngestionProgressPanel />
        </div>
      </TestApiProvider>,
    );
    expect(api.getIngestionProgress).toHaveBeenCalledTimes(1);
    // Let the panel handle the rejection before looking.
    await act(async () => {
      await failed.catch(() => {});
    });
    expect(screen.queryByTestId('ask-docs-ingestion')).toBeNull();
    expect(
      screen.queryByRole('button', { name: 'Start ingestion run' }),
    ).toBeNull();
    expect(
      container.querySelector('[data-testid="host"]'),
    ).toBeEmptyDOMElement();
  });

  it('tries a failed first load again, slowly, and shows the panel once it loads', async () => {
    jest.useFakeTimers();
    try {
      const api = mockAskDocsApi({
        getIngestionProgress: jest
          .fn()
          .mockRejectedValueOnce(new Error('Request failed (502 Bad Gateway)'))
          .mockResolvedValue(progress),
      });
      await renderInTestApp(
        <TestApiProvider apis={[[askDocsApiRef, api]]}>
          <IngestionProgressPanel pollIntervalMs={1000} />
        </TestApiProvider>,
      );
      await act(async () => {
        jest.advanceTimersByTime(5000);
      });
      expect(api.getIngestionProgress).toHaveBeenCalledTimes(1);
      expect(screen.queryByTestId('ask-docs-ingestion')).toBeNull();
      await act(async () => {
        jest.advanceTimersByTime(1000);
      });
      expect(api.getIngestionProgress).toHaveBeenCalledTimes(2);
      await waitFor(() =>
        expect(screen.getByTestId('ask-docs-ingestion')).toBeInTheDocument(),
      );
      // Loaded and not running: no more polling.
      await act(async () => {
        jest.advanceTimersByTime(60_000);
      });
      expect(api.getIngestionProgress).toHaveBeenCalledTimes(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('does not try a forbidden first load again', async () => {
    const error = await forbidden();
    jest.useFakeTimers();
    try {
      const api = mockAskDocsApi({
        getIngestionProgress: jest.fn(async () => {
          throw error;
        }),
      });
      await renderInTestApp(
        <TestApiProvider apis={[[askDocsApiRef, api]]}>
          <IngestionProgressPanel pollIntervalMs={1000} />
        </TestApiProvider>,
      );
      await act(async () => {
        jest.advanceTimersByTime(60_000);
      });
      expect(api.getIngestionProgress).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps polling and the last counters through a failed refresh', async () => {
    jest.useFakeTimers();
    try {
      const running: IngestionProgress = {
        ...progress,
        status: 'running',
        pagesDone: 5,
      };
      const api = mockAskDocsApi({
        getIngestionProgress: jest
          .fn()
          .mockResolvedValueOnce(running)
          .mockRejectedValueOnce(new Error('gateway timeout'))
          .mockResolvedValue({ ...running, pagesDone: 9 }),
      });
      await renderInTestApp(
        <TestApiProvider apis={[[askDocsApiRef, api]]}>
          <IngestionProgressPanel pollIntervalMs={1000} />
        </TestApiProvider>,
      );
      const pagesDone = () =>
        screen.getByTestId('ask-docs-ingestion-pages-done');
      await waitFor(() => expect(pagesDone()).toHaveTextContent('5'));

      await act(async () => {
        jest.advanceTimersByTime(1000);
      });
      expect(api.getIngestionProgress).toHaveBeenCalledTimes(2);
      expect(screen.getByRole('alert')).toHaveTextContent('gateway timeout');
      expect(pagesDone()).toHaveTextContent('5');
      expect(screen.getByTestId('ask-docs-ingestion')).toHaveTextContent(
        'running',
      );

      await act(async () => {
        jest.advanceTimersByTime(1000);
      });
      expect(api.getIngestionProgress).toHaveBeenCalledTimes(3);
      expect(pagesDone()).toHaveTextContent('9');
      expect(screen.queryByRole('alert')).toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });

  it('stops polling when a refresh during a run is forbidden', async () => {
    jest.useFakeTimers();
    try {
      const running: IngestionProgress = { ...progress, status: 'running' };
      const refused = await forbidden();
      const api = mockAskDocsApi({
        getIngestionProgress: jest
          .fn()
          .mockResolvedValueOnce(running)
          .mockRejectedValue(refused),
      });
      await renderInTestApp(
        <TestApiProvider apis={[[askDocsApiRef, api]]}>
          <IngestionProgressPanel pollIntervalMs={1000} />
        </TestApiProvider>,
      );
      await screen.findByTestId('ask-docs-ingestion');
      await act(async () => {
        jest.advanceTimersByTime(1000);
      });
      expect(screen.queryByTestId('ask-docs-ingestion')).toBeNull();
      await act(async () => {
        jest.advanceTimersByTime(5000);
      });
      expect(api.getIngestionProgress).toHaveBeenCalledTimes(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('starts a run and refreshes', async () => {
    const api = mockAskDocsApi({
      getIngestionProgress: jest
        .fn()
        .mockResolvedValueOnce(progress)
        .mockResolvedValue({ ...progress, runId: 4, status: 'running' }),
      startIngestion: jest.fn(async () => ({
        started: true,
        running: true,
        runId: 4,
      })),
    });
    await renderInTestApp(
      <TestApiProvider apis={[[askDocsApiRef, api]]}>
        <IngestionProgressPanel pollIntervalMs={60_000} />
      </TestApiProvider>,
    );
    await userEvent.click(
      await screen.findByRole('button', { name: 'Start ingestion run' }),
    );
    expect(api.startIngestion).toHaveBeenCalledTimes(1);
    await waitFor(() =>
      expect(screen.getByTestId('ask-docs-ingestion')).toHaveTextContent(
        'running',
      ),
    );
    expect(
      screen.getByRole('button', { name: 'Start ingestion run' }),
    ).toBeDisabled();
  });
});
