import { useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import Box from '@material-ui/core/Box';
import { Content, Header, Page } from '@backstage/core-components';
import { useTranslationRef } from '@backstage/frontend-plugin-api';
import { askDocsTranslationRef } from '../../translation';
import { AskDocsPanel } from '../AskDocsPanel';
import { IngestionProgressPanel } from '../IngestionProgressPanel';

/**
 * `?q=` lets other pages (e.g. search results) link straight to an answer. Each navigation that
 * brings one asks it once; it is then removed from the URL (replacing the history entry), since
 * every ask is an audited model call that a reload or Back must not repeat. The answer stays
 * in the asker's history.
 */
function useLinkedQuestion() {
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim();
  const [linked, setLinked] = useState(() =>
    q ? { question: q, key: location.key } : undefined,
  );
  // Set while rendering, so the panel mounts with the question instead of mounting twice.
  if (q && linked?.key !== location.key) {
    setLinked({ question: q, key: location.key });
  }

  useEffect(() => {
    if (!params.has('q')) return;
    const rest = new URLSearchParams(params);
    rest.delete('q');
    setParams(rest, { replace: true, state: location.state });
  }, [params, setParams, location.state]);

  return linked;
}

/** The page body without a header, for apps whose page frame provides one. */
export function AskDocsPageContent() {
  const linked = useLinkedQuestion();
  return (
    <Content>
      <AskDocsPanel
        // A linked question starts afresh: its own box and thread, not a follow-up.
        key={linked?.key}
        showHistory
        initialQuestion={linked?.question}
      />
      <Box mt={3}>
        <IngestionProgressPanel />
      </Box>
    </Content>
  );
}

/** Full page for the legacy frontend system. */
export function AskDocsPage() {
  const { t } = useTranslationRef(askDocsTranslationRef);
  return (
    <Page themeId="tool">
      <Header title={t('page.title')} subtitle={t('page.subtitle')} />
      <AskDocsPageContent />
    </Page>
  );
}
