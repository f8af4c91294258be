export { EntityAskDocsCard } from './EntityAskDocsCard';
export type { EntityAskDocsCardProps } from './EntityAskDocsCard';
