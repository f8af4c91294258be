export { startFakeOpenAI, splitWords } from './server';
export type {
  FakeBehaviour,
  FakeChatMessage,
  FakeChatRequest,
  FakeOpenAI,
  FakeOpenAIOptions,
  FakeReply,
} from './server';
