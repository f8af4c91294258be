import { InfoCard } from '@backstage/core-components';
import { useTranslationRef } from '@backstage/frontend-plugin-api';
import type { AskScope } from '@askdocs/plugin-ask-docs-common';
import { askDocsTranslationRef } from '../../translation';
import { AskDocsPanel } from '../AskDocsPanel';

export interface AskDocsCardProps {
  title?: string;
  scope?: AskScope;
  placeholder?: string;
}

/** The question panel in a card, for home pages and dashboards. */
export function AskDocsCard(props: AskDocsCardProps) {
  const { t } = useTranslationRef(askDocsTranslationRef);
  return (
    <InfoCard title={props.title ?? t('askDocsCard.title')}>
      <AskDocsPanel
        // Another scope (an entity page swapping its entity) starts with an empty box and no
        // thread: an answer and its follow-ups belong to the documents they were asked about.
        key={JSON.stringify(props.scope?.entityRefs ?? [])}
        scope={props.scope}
        placeholder={props.placeholder}
      />
    </InfoCard>
  );
}
