export { AskDocsCard } from './AskDocsCard';
export type { AskDocsCardProps } from './AskDocsCard';
