import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  createExtensionTester,
  renderTestApp,
} from '@backstage/frontend-test-utils';
import { EntityCardBlueprint } from '@backstage/plugin-catalog-react/alpha';
import type { Entity } from '@backstage/catalog-model';
import {
  PageBlueprint,
  createFrontendPlugin,
  createRouteRef,
} from '@backstage/frontend-plugin-api';
import { ResponseError } from '@backstage/errors';
import { askDocsApiRef } from './api/AskDocsApi';
import { groundedResponse } from './testUtils/fixtures';
import { mockAskDocsApi, streamOf } from './testUtils/mockApi';
import type { AskResponse } from '@askdocs/plugin-ask-docs-common';
import askDocsPlugin, { askDocsEntityCard } from './alpha';

/** Stands in for the TechDocs plugin, with its reader mounted at /tech instead of /docs. */
function techdocsAt(path: string) {
  const docRoot = createRouteRef({ params: ['namespace', 'kind', 'name'] });
  return createFrontendPlugin({
    pluginId: 'techdocs',
    routes: { docRoot },
    extensions: [
      PageBlueprint.make({
        params: {
          path,
          routeRef: docRoot,
          loader: async () => <div>reader</div>,
        },
      }),
    ],
  });
}

describe('ask-docs frontend plugin (new frontend system)', () => {
  it('offers the entity card on entities with TechDocs only', () => {
    const shown = createExtensionTester(askDocsEntityCard).get(
      EntityCardBlueprint.dataRefs.filterFunction,
    )!;
    const entity = (kind: string, annotations: Record<string, string>) =>
      ({
        apiVersion: 'backstage.io/v1alpha1',
        kind,
        metadata: { name: 'x', annotations },
      } as Entity);
    expect(
      shown(entity('Component', { 'backstage.io/techdocs-ref': 'dir:.' })),
    ).toBe(true);
    expect(
      shown(
        entity('Component', {
          'backstage.io/techdocs-entity': 'component:docs',
        }),
      ),
    ).toBe(true);
    expect(shown(entity('Group', {}))).toBe(false);
    expect(
      shown(entity('Component', { 'backstage.io/source-location': 'url:x' })),
    ).toBe(false);
  });

  it('serves the panel and the history at /ask-docs', async () => {
    const api = mockAskDocsApi({
      listAnswers: jest.fn(async () => []),
      getIngestionProgress: jest.fn(() => new Promise(() => {})),
    });
    renderTestApp({
      features: [askDocsPlugin],
      apis: [[askDocsApiRef, api]],
      initialRouteEntries: ['/ask-docs'],
    });
    expect(await screen.findByTestId('ask-docs-question')).toBeInTheDocument();
    expect(await screen.findByTestId('ask-docs-history')).toBeInTheDocument();
    expect(api.listAnswers).toHaveBeenCalledWith({
      limit: 20,
      signal: expect.any(AbortSignal),
    });
  });

  it('shows no ingestion panel when the first load fails (a 502 is no admin)', async () => {
    const failed = ResponseError.fromResponse(
      new Response('<html>Bad Gateway</html>', { status: 502 }),
    ).then(error => Promise.reject(error));
    failed.catch(() => {});
    const api = mockAskDocsApi({
      getIngestionProgress: jest.fn(() => failed),
    });
    renderTestApp({
      features: [askDocsPlugin],
      apis: [[askDocsApiRef, api]],
      initialRouteEntries: ['/ask-docs'],
    });
    await screen.findByTestId('ask-docs-history');
    await waitFor(() => expect(api.getIngestionProgress).toHaveBeenCalled());
    // Let the panel handle the rejection before looking.
    await act(async () => {
      await failed.catch(() => {});
    });
    expect(screen.queryByTestId('ask-docs-ingestion')).toBeNull();
    expect(screen.queryByText(/Request failed/)).toBeNull();
    expect(
      screen.queryByRole('button', { name: 'Start ingestion run' }),
    ).toBeNull();
  });

  it('links citations to the TechDocs reader wherever the app mounts it', async () => {
    const [source] = groundedResponse.sources;
    const entityUrl = '/catalog/default/component/payments';
    const answer: AskResponse = {
      ...groundedResponse,
      sources: [source, { ...source, title: 'payments', url: entityUrl }],
    };
    const api = mockAskDocsApi({
      askStream: jest.fn(() => streamOf(answer)),
      getIngestionProgress: jest.fn(() => new Promise(() => {})),
    });
    renderTestApp({
      // No catalog plugin: the entity page is mounted nowhere.
      features: [askDocsPlugin, techdocsAt('/tech/:namespace/:kind/:name')],
      apis: [[askDocsApiRef, api]],
      initialRouteEntries: ['/ask-docs'],
    });
    await userEvent.type(
      await screen.findByTestId('ask-docs-question'),
      'How do I roll back?',
    );
    await userEvent.click(screen.getByTestId('ask-docs-submit'));
    const text = await screen.findByTestId('ask-docs-answer-text');
    expect(
      within(text).getByRole('link', { name: 'Release process › Rollback' }),
    ).toHaveAttribute(
      'href',
      '/tech/default/component/payments/release/#rollback',
    );
    // A route the app does not have keeps the backend's link.
    const sources = screen.getByTestId('ask-docs-sources');
    expect(
      within(sources).getByRole('link', { name: 'payments' }),
    ).toHaveAttribute('href', entityUrl);
  });
});
