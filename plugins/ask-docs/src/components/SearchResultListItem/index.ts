export { AskDocsSearchResultListItem } from './AskDocsSearchResultListItem';
export type { AskDocsSearchResultListItemProps } from './AskDocsSearchResultListItem';
