/**
 * Ask the docs frontend: grounded, cited answers from TechDocs and the catalog.
 *
 * @packageDocumentation
 */
export {
  askDocsPlugin,
  AskDocsPage,
  AskDocsCard,
  EntityAskDocsCard,
  AskDocsSearchAnswerCard,
  AskDocsSearchResultListItem,
  AskDocsTechDocsAddon,
} from './plugin';
export { askDocsApiRef, AskDocsClient } from './api';
export type {
  AskDocsApi,
  AskDocsRequestOptions,
  ListAnswersOptions,
} from './api';
export { ASK_DOCS_SEARCH_RESULT_TYPE } from './searchResultType';
export { rootRouteRef as askDocsRootRouteRef } from './routes';
export { AskDocsPanel, AskStateView } from './components/AskDocsPanel';
export type {
  AskDocsPanelProps,
  AskStateViewProps,
} from './components/AskDocsPanel';
export { AnswerView, answerKind } from './components/AnswerView';
export type { AnswerViewProps, AnswerKind } from './components/AnswerView';
export { AnswerText, linkCitations } from './components/AnswerText';
export type {
  AnswerSegment,
  AnswerTextProps,
  CitationItem,
} from './components/AnswerText';
export { TechDocsAskAddon } from './components/TechDocsAskAddon';
// For the legacy system's entity pages: `<EntitySwitch.Case if={hasTechDocs}>` around
// EntityAskDocsCard, as the new system's entity card filter does.
export { hasTechDocs } from './components/entityScope';
export { IngestionProgressPanel } from './components/IngestionProgressPanel';
export type { IngestionProgressPanelProps } from './components/IngestionProgressPanel';
export { HistoryList } from './components/HistoryList';
export type { HistoryListProps } from './components/HistoryList';
export { useAskDocs } from './hooks/useAskDocs';
export type { AskState, UseAskDocs } from './hooks/useAskDocs';
export type { AskDocsCardProps } from './components/AskDocsCard';
export type { EntityAskDocsCardProps } from './components/EntityAskDocsCard';
export type { AskDocsSearchAnswerCardProps } from './components/SearchAnswerCard';
export type { AskDocsSearchResultListItemProps } from './components/SearchResultListItem';
