import { InfoCard } from '@backstage/core-components';
import type { AskScope } from '@askdocs/plugin-ask-docs-common';
import { AskDocsPanel } from '../AskDocsPanel';

export interface AskDocsCardProps {
  title?: string;
  scope?: AskScope;
  placeholder?: string;
}

/** The question panel in a card, for home pages and dashboards. */
export function AskDocsCard(props: AskDocsCardProps) {
  return (
    <InfoCard title={props.title ?? 'Ask the docs'}>
      <AskDocsPanel scope={props.scope} placeholder={props.placeholder} />
    </InfoCard>
  );
}
