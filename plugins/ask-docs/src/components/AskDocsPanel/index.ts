export { AskDocsPanel, AskStateView } from './AskDocsPanel';
export type { AskDocsPanelProps } from './AskDocsPanel';
