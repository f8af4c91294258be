import { useEntity } from '@backstage/plugin-catalog-react';
import { AskDocsCard } from '../AskDocsCard';
import { entityScope } from '../entityScope';

export interface EntityAskDocsCardProps {
  title?: string;
}

/** "Ask about this component's docs": the panel scoped to the current entity. */
export function EntityAskDocsCard(props: EntityAskDocsCardProps) {
  const { entity } = useEntity();
  const name = entity.metadata.title ?? entity.metadata.name;
  return (
    <AskDocsCard
      title={props.title ?? `Ask about ${name}'s docs`}
      scope={entityScope(entity)}
      placeholder={`What would you like to know about ${name}?`}
    />
  );
}
