export { AskDocsPanel, AskStateView } from './AskDocsPanel';
export type { AskDocsPanelProps, AskStateViewProps } from './AskDocsPanel';
