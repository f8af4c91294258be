import type { FakeBehaviour, FakeChatRequest } from '../fake-openai';

/** The "Cite as:" labels of the context blocks, in block order. */
export function citeAsLabels(request: FakeChatRequest): string[] {
  const prompt = request.messages.map(m => m.content).join('\n');
  return [...prompt.matchAll(/^Cite as: (\[[^\n]+\])$/gm)].map(m => m[1]);
}

/** A well-behaved model: one sentence taken from the first block, citing it as told. */
export const citeFirstBlock: FakeBehaviour = request => {
  const [label] = citeAsLabels(request);
  if (!label) return 'NOT_IN_DOCUMENTS';
  return `The documentation covers this. ${label}`;
};
