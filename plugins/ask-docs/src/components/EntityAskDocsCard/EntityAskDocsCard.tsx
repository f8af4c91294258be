import { stringifyEntityRef } from '@backstage/catalog-model';
import { useEntity } from '@backstage/plugin-catalog-react';
import { AskDocsCard } from '../AskDocsCard';

export interface EntityAskDocsCardProps {
  title?: string;
}

/** "Ask about this component's docs": the panel scoped to the current entity. */
export function EntityAskDocsCard(props: EntityAskDocsCardProps) {
  const { entity } = useEntity();
  // Entity refs compare case-insensitively; the index stores them lower-cased.
  const entityRef = stringifyEntityRef(entity).toLocaleLowerCase('en-US');
  const name = entity.metadata.title ?? entity.metadata.name;
  return (
    <AskDocsCard
      title={props.title ?? `Ask about ${name}'s docs`}
      scope={{ entityRefs: [entityRef] }}
      placeholder={`What would you like to know about ${name}?`}
    />
  );
}
