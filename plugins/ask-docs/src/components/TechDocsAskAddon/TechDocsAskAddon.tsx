import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { useTranslationRef } from '@backstage/frontend-plugin-api';
import { useTechDocsReaderPage } from '@backstage/plugin-techdocs-react';
import { askDocsTranslationRef } from '../../translation';
import { AskDocsPanel } from '../AskDocsPanel';
import { entityScope } from '../entityScope';

/**
 * "Ask about these docs" in the TechDocs reader: the question box and the answer, with
 * retrieval limited to the documents of the entity whose docs are being read. Citations
 * and sources link to the cited page at the section anchor (rendered by AnswerView).
 */
export function TechDocsAskAddon() {
  const { entityRef, entityMetadata } = useTechDocsReaderPage();
  const { t } = useTranslationRef(askDocsTranslationRef);
  // Outside a reader the context holds an empty ref; an unscoped box would search all docs.
  if (!entityRef.name || !entityRef.kind) return null;
  const name = entityMetadata.value?.metadata.title ?? entityRef.name;
  return (
    <Box width="100%" mb={2} data-testid="ask-docs-techdocs-addon">
      <Typography variant="subtitle2" component="h2" gutterBottom>
        {t('techDocsAddon.title')}
      </Typography>
      <AskDocsPanel
        // A new entity (navigating between docs sites) starts with an empty box.
        key={`${entityRef.namespace}/${entityRef.kind}/${entityRef.name}`}
        scope={entityScope(entityRef)}
        placeholder={t('askPanel.entityPlaceholder', { name })}
      />
    </Box>
  );
}
