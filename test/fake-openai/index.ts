export { CONTEXT_LENGTH_EXCEEDED, startFakeOpenAI, splitWords } from './server';
export type {
  FakeBehaviour,
  FakeChatMessage,
  FakeChatRequest,
  FakeOpenAI,
  FakeOpenAIOptions,
  FakeReply,
} from './server';
