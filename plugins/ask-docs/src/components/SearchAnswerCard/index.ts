export { AskDocsSearchAnswerCard } from './AskDocsSearchAnswerCard';
export type { AskDocsSearchAnswerCardProps } from './AskDocsSearchAnswerCard';
