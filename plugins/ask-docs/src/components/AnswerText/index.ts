export { AnswerText } from './AnswerText';
export type { AnswerTextProps } from './AnswerText';
export { linkCitations } from './linkCitations';
export type { AnswerSegment, CitationItem } from './linkCitations';
