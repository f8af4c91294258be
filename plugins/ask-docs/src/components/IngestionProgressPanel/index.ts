export { IngestionProgressPanel } from './IngestionProgressPanel';
export type { IngestionProgressPanelProps } from './IngestionProgressPanel';
