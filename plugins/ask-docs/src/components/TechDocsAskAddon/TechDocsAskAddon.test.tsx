import { ComponentType } from 'react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { createExtensionTester } from '@backstage/frontend-test-utils';
import type { CompoundEntityRef } from '@backstage/catalog-model';
import type { AskResponse } from '@askdocs/plugin-ask-docs-common';
import {
  TechDocsReaderPageProvider,
  techdocsApiRef,
} from '@backstage/plugin-techdocs-react';
import { AddonBlueprint } from '@backstage/plugin-techdocs-react/alpha';
import { askDocsApiRef } from '../../api/AskDocsApi';
import askDocsPlugin, { askDocsTechDocsAddon } from '../../alpha';
import { groundedResponse } from '../../testUtils/fixtures';
import { mockAskDocsApi, streamOf } from '../../testUtils/mockApi';

const PAGE = '/docs/default/component/payments-service/release/#rollback';

// A grounded answer citing a page of the docs being read, at a section anchor.
const answer: AskResponse = {
  ...groundedResponse,
  answer: 'Run the rollback job [Release process › Rollback].',
  sources: [
    {
      ...groundedResponse.sources[0],
      entityRef: 'component:default/payments-service',
      url: PAGE,
    },
  ],
};

const techdocsApi = {
  getCookie: jest.fn(),
  getApiOrigin: jest.fn(async () => 'http://localhost:7007/api/techdocs'),
  getTechDocsMetadata: jest.fn(async () => ({
    site_name: 'Payments',
    site_description: '',
  })),
  getEntityMetadata: jest.fn(async (ref: CompoundEntityRef) => ({
    apiVersion: 'backstage.io/v1alpha1',
    kind: ref.kind,
    metadata: { name: ref.name, namespace: ref.namespace, title: 'Payments' },
  })),
};

/** The component the new frontend system's addon extension hands to the reader. */
function addonOptions() {
  return createExtensionTester(askDocsTechDocsAddon).get(
    AddonBlueprint.dataRefs.addon,
  );
}

async function renderAddon(
  Addon: ComponentType,
  entityRef?: CompoundEntityRef,
) {
  const api = mockAskDocsApi({
    askStream: jest.fn(() => streamOf(answer)),
  });
  await renderInTestApp(
    <TestApiProvider
      apis={[
        [askDocsApiRef, api],
        [techdocsApiRef, techdocsApi],
      ]}
    >
      {entityRef ? (
        <TechDocsReaderPageProvider entityRef={entityRef}>
          <Addon />
        </TechDocsReaderPageProvider>
      ) : (
        <Addon />
      )}
    </TestApiProvider>,
  );
  return api;
}

async function askQuestion(question: string) {
  await userEvent.type(
    await screen.findByTestId('ask-docs-question'),
    question,
  );
  await userEvent.click(screen.getByTestId('ask-docs-submit'));
  await screen.findByTestId('ask-docs-state-grounded');
}

describe('Ask about these docs (TechDocs addon)', () => {
  it('is a subheader addon of the reader', () => {
    // The ids the README documents for app.extensions.
    expect(askDocsPlugin.getExtension('addon:ask-docs/ask')).toMatchObject({
      kind: 'addon',
      name: 'ask',
    });
    expect(
      askDocsPlugin.getExtension('search-filter:ask-docs/answer'),
    ).toMatchObject({ kind: 'search-filter', name: 'answer' });
    const options = addonOptions();
    expect(options.name).toBe('AskDocsAddon');
    expect(options.location).toBe('Subheader');
  });

  it('asks scoped to the entity being read; citations link to the section', async () => {
    const api = await renderAddon(addonOptions().component, {
      kind: 'component',
      namespace: 'default',
      name: 'payments-service',
    });
    expect(await screen.findByText('Ask about these docs')).toBeInTheDocument();
    await askQuestion('How do I roll back?');

    expect(api.askStream).toHaveBeenCalledTimes(1);
    expect(api.askStream.mock.calls[0][0]).toEqual({
      question: 'How do I roll back?',
      scope: { entityRefs: ['component:default/payments-service'] },
    });
    const citation = screen.getByTestId('ask-docs-citation');
    expect(citation.querySelector('a')).toHaveAttribute('href', PAGE);
    const source = screen.getByTestId('ask-docs-source');
    expect(source.querySelector('a')).toHaveAttribute('href', PAGE);
  });

  it('lower-cases the ref of a reader opened with upper-case letters', async () => {
    const api = await renderAddon(addonOptions().component, {
      kind: 'Component',
      namespace: 'Default',
      name: 'Payments-Service',
    });
    await askQuestion('How do I roll back?');
    expect(api.askStream.mock.calls[0][0].scope).toEqual({
      entityRefs: ['component:default/payments-service'],
    });
  });

  it('shows nothing outside a TechDocs reader, so it never asks unscoped', async () => {
    const Addon = addonOptions().component;
    const api = mockAskDocsApi();
    // Beside the one outside, one inside a reader proves the lazy chunk loaded and rendered.
    await renderInTestApp(
      <TestApiProvider
        apis={[
          [askDocsApiRef, api],
          [techdocsApiRef, techdocsApi],
        ]}
      >
        <div data-testid="outside">
          <Addon />
        </div>
        <TechDocsReaderPageProvider
          entityRef={{
            kind: 'component',
            namespace: 'default',
            name: 'payments-service',
          }}
        >
          <Addon />
        </TechDocsReaderPageProvider>
      </TestApiProvider>,
    );
    expect(
      await screen.findByTestId('ask-docs-techdocs-addon'),
    ).toBeInTheDocument();
    expect(screen.getAllByTestId('ask-docs-question')).toHaveLength(1);
    expect(screen.getByTestId('outside')).toBeEmptyDOMElement();
    expect(api.askStream).not.toHaveBeenCalled();
  });
});
