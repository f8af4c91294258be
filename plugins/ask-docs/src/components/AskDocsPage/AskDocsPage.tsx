import { useMemo } from 'react';
import Box from '@material-ui/core/Box';
import { Content, Header, Page } from '@backstage/core-components';
import { AskDocsPanel } from '../AskDocsPanel';
import { IngestionProgressPanel } from '../IngestionProgressPanel';

/** `?q=` lets other pages (e.g. search results) link straight to an answer. */
function useInitialQuestion(): string | undefined {
  return useMemo(() => {
    if (typeof window === 'undefined') return undefined;
    return new URLSearchParams(window.location.search).get('q') ?? undefined;
  }, []);
}

/** The page body without a header, for apps whose page frame provides one. */
export function AskDocsPageContent() {
  const initialQuestion = useInitialQuestion();
  return (
    <Content>
      <AskDocsPanel showHistory initialQuestion={initialQuestion} />
      <Box mt={3}>
        <IngestionProgressPanel />
      </Box>
    </Content>
  );
}

/** Full page for the legacy frontend system. */
export function AskDocsPage() {
  return (
    <Page themeId="tool">
      <Header
        title="Ask the docs"
        subtitle="Answers from TechDocs and the catalog, with the sources they come from"
      />
      <AskDocsPageContent />
    </Page>
  );
}
