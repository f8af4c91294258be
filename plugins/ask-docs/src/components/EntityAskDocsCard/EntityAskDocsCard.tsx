import { useTranslationRef } from '@backstage/frontend-plugin-api';
import { useEntity } from '@backstage/plugin-catalog-react';
import { askDocsTranslationRef } from '../../translation';
import { AskDocsCard } from '../AskDocsCard';
import { entityScope } from '../entityScope';

export interface EntityAskDocsCardProps {
  title?: string;
}

/** "Ask about this component's docs": the panel scoped to the current entity. */
export function EntityAskDocsCard(props: EntityAskDocsCardProps) {
  const { entity } = useEntity();
  const { t } = useTranslationRef(askDocsTranslationRef);
  const name = entity.metadata.title ?? entity.metadata.name;
  return (
    <AskDocsCard
      title={props.title ?? t('entityCard.title', { name })}
      scope={entityScope(entity)}
      placeholder={t('askPanel.entityPlaceholder', { name })}
    />
  );
}
