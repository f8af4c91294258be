import { useState } from 'react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import type { Entity } from '@backstage/catalog-model';
import { askDocsApiRef } from '../../api/AskDocsApi';
import { groundedResponse } from '../../testUtils/fixtures';
import { mockAskDocsApi, streamOf } from '../../testUtils/mockApi';
import { EntityAskDocsCard } from './EntityAskDocsCard';

const entity: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'Payments', namespace: 'Default' },
  spec: { type: 'service', owner: 'team-a', lifecycle: 'production' },
};

describe('EntityAskDocsCard', () => {
  it('scopes questions to the current entity', async () => {
    const api = mockAskDocsApi({
      askStream: jest.fn(() => streamOf(groundedResponse)),
    });
    await renderInTestApp(
      <TestApiProvider apis={[[askDocsApiRef, api]]}>
        <EntityProvider entity={entity}>
          <EntityAskDocsCard />
        </EntityProvider>
      </TestApiProvider>,
    );
    expect(screen.getByText("Ask about Payments's docs")).toBeInTheDocument();
    await userEvent.type(
      screen.getByTestId('ask-docs-question'),
      'How to deploy?',
    );
    await userEvent.click(screen.getByTestId('ask-docs-submit'));
    await screen.findByTestId('ask-docs-state-grounded');
    expect(api.askStream.mock.calls[0][0]).toEqual({
      question: 'How to deploy?',
      scope: { entityRefs: ['component:default/payments'] },
    });
  });

  it('also asks the docs of the entity its techdocs-entity annotation names', async () => {
    const api = mockAskDocsApi({
      askStream: jest.fn(() => streamOf(groundedResponse)),
    });
    const withExternalDocs: Entity = {
      ...entity,
      metadata: {
        ...entity.metadata,
        // As the TechDocs plugin reads it: the namespace defaults to 'default'.
        annotations: {
          'backstage.io/techdocs-entity': 'Component:Shared-Docs',
        },
      },
    };
    await renderInTestApp(
      <TestApiProvider apis={[[askDocsApiRef, api]]}>
        <EntityProvider entity={withExternalDocs}>
          <EntityAskDocsCard />
        </EntityProvider>
      </TestApiProvider>,
    );
    await userEvent.type(screen.getByTestId('ask-docs-question'), 'How?');
    await userEvent.click(screen.getByTestId('ask-docs-submit'));
    await screen.findByTestId('ask-docs-state-grounded');
    expect(api.askStream.mock.calls[0][0].scope).toEqual({
      entityRefs: [
        'component:default/payments',
        'component:default/shared-docs',
      ],
    });
  });

  it('starts afresh on another entity: no answer or thread of the one before', async () => {
    const api = mockAskDocsApi({
      askStream: jest.fn(() => streamOf(groundedResponse)),
    });
    const billing: Entity = {
      ...entity,
      metadata: { name: 'billing', namespace: 'default' },
    };
    // The entity page swaps the entity without remounting its cards.
    function EntityPage() {
      const [current, setCurrent] = useState(entity);
      return (
        <>
          <button type="button" onClick={() => setCurrent(billing)}>
            next entity
          </button>
          <EntityProvider entity={current}>
            <EntityAskDocsCard />
          </EntityProvider>
        </>
      );
    }
    await renderInTestApp(
      <TestApiProvider apis={[[askDocsApiRef, api]]}>
        <EntityPage />
      </TestApiProvider>,
    );
    await userEvent.type(
      screen.getByTestId('ask-docs-question'),
      'How to deploy?',
    );
    await userEvent.click(screen.getByTestId('ask-docs-submit'));
    await screen.findByTestId('ask-docs-state-grounded');

    await userEvent.click(screen.getByText('next entity'));
    expect(screen.getByText("Ask about billing's docs")).toBeInTheDocument();
    expect(screen.queryByTestId('ask-docs-state-grounded')).toBeNull();
    expect(screen.getByTestId('ask-docs-question')).toHaveValue('');
    await userEvent.type(
      screen.getByTestId('ask-docs-question'),
      'How to deploy?',
    );
    await userEvent.click(screen.getByTestId('ask-docs-submit'));
    await screen.findByTestId('ask-docs-state-grounded');
    // Not a follow-up of the payments answer: no thread, billing's scope.
    expect(api.askStream.mock.calls[1][0]).toEqual({
      question: 'How to deploy?',
      scope: { entityRefs: ['component:default/billing'] },
    });
  });
});
