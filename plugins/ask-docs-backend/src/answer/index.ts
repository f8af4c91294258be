/** The answering layer: prompt, model call, citation matching. Independent of the database. */
export type {
  RetrievedChunk,
  ChatMessage,
  ChatModel,
  ChatCompleteOptions,
  ConversationTurn,
} from './types';
export {
  createChatModel,
  createChatModelFromOptions,
  classifyModelError,
  ModelUnavailableError,
  DEFAULT_LLM_TIMEOUT_MS,
  DEFAULT_LLM_MAX_RETRIES,
} from './llm';
export type { ChatModelOptions, ModelFailureReason } from './llm';
export {
  buildPrompt,
  SYSTEM_PROMPT,
  NOT_IN_DOCUMENTS_REPLY,
  DEFAULT_MAX_CONTEXT_CHARS,
  DEFAULT_MAX_BLOCKS,
} from './prompt';
export type { BuiltPrompt, PromptBlock, PromptBudget } from './prompt';
export { citationLabels } from './labels';
export { matchCitations, selectSources } from './citations';
export type {
  CitationMatch,
  CitationSelection,
  UnmatchedCitation,
} from './citations';
export { citedPassage, makeSnippet, SNIPPET_CHARS } from './snippet';
export {
  AnswerAbortedError,
  answerQuestion,
  answerSettings,
  DEFAULT_MAX_EVIDENCE,
  DEFAULT_MIN_CLAIM_OVERLAP,
} from './answerQuestion';
export type {
  AnswerInput,
  AnswerOptions,
  AnswerResult,
  NoAnswerNotice,
} from './answerQuestion';
