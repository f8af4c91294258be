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
});
