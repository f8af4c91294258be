import { useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import Box from '@material-ui/core/Box';
import { Content, Header, Page } from '@backstage/core-components';
import { useTranslationRef } from '@backstage/frontend-plugin-api';
import { askDocsTranslationRef } from '../../translation';
import { AskDocsPanel } from '../AskDocsPanel';
import { IngestionProgressPanel } from '../IngestionProgressPanel';
import { SectionHeadingLevel } from '../headingLevel';
import { asksOnArrival, withoutAskOnArrival } from '../askLink';

/**
 * `?q=` lets other pages link to a question: it fills the question box. Every ask is an audited
 * model call on the user's quota, and anyone can post such a URL, so the question is asked only
 * when the navigation carries ASK_ON_ARRIVAL (the plugin's own search result link sets it; a URL
 * cannot). Each navigation that brings one asks it once; `q` and the flag are then removed
 * (replacing the history entry), so that a reload or Back does not ask again. The answer stays
 * in the asker's history.
 */
function useLinkedQuestion() {
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim();
  const linkOf = () => ({
    question: q,
    key: location.key,
    ask: asksOnArrival(location.state),
  });
  const [linked, setLinked] = useState(() => (q ? linkOf() : undefined));
  // Set while rendering, so the panel mounts with the question instead of mounting twice.
  if (q && linked?.key !== location.key) {
    setLinked(linkOf());
  }

  useEffect(() => {
    if (!params.has('q') && !asksOnArrival(location.state)) return;
    const rest = new URLSearchParams(params);
    rest.delete('q');
    setParams(rest, {
      replace: true,
      state: withoutAskOnArrival(location.state),
    });
  }, [params, setParams, location.state]);

  return linked;
}

/** The page body without a header, for apps whose page frame provides one. */
export function AskDocsPageContent() {
  const linked = useLinkedQuestion();
  return (
    <Content>
      {/* Directly under the page's title (h1): Sources and History are h2. */}
      <SectionHeadingLevel.Provider value="h2">
        <AskDocsPanel
          // A linked question starts afresh: its own box and thread, not a follow-up.
          key={linked?.key}
          showHistory
          initialQuestion={linked?.question}
          askOnMount={linked?.ask}
        />
      </SectionHeadingLevel.Provider>
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
