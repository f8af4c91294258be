export { HistoryList } from './HistoryList';
export type { HistoryListProps } from './HistoryList';
