export { AnswerView, answerKind } from './AnswerView';
export type { AnswerViewProps, AnswerKind } from './AnswerView';
export { FeedbackButtons } from './FeedbackButtons';
export type { FeedbackButtonsProps } from './FeedbackButtons';
export { SourceList } from './SourceList';
export type { SourceListProps, Passage } from './SourceList';
