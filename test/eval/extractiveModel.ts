/*
 * The offline stand-in for a language model in the answer evaluation: it reads the prompt the
 * product built, picks the context sentence that shares most content words with the question and
 * answers with that sentence, citing its block exactly as the prompt says. It is not a language
 * model (no paraphrase, no synthesis); it measures what the pipeline around the model does with a
 * faithful answer: which blocks are sent, how labels map back to documents, which sources are
 * shown. With ASK_DOCS_LLM_* set, run.ts --answers uses a real OpenAI-compatible model instead.
 */
import type {
  ChatMessage,
  ChatModel,
} from '../../plugins/ask-docs-backend/src/answer';
import { NOT_IN_DOCUMENTS_REPLY } from '../../plugins/ask-docs-backend/src/answer/prompt';
import { splitSentences } from '../../plugins/ask-docs-backend/src/answer/snippet';
import { Analyzers } from '../../plugins/ask-docs-backend/src/language';
import { contentKeys } from './answerJudge';

export interface PromptContextBlock {
  number: number;
  citeAs: string;
  text: string;
}

/** The context blocks of the product's prompt (see buildPrompt / renderBlock). */
export function parsePromptBlocks(messages: ChatMessage[]): {
  blocks: PromptContextBlock[];
  question: string;
} {
  const user = messages
    .filter(m => m.role === 'user')
    .map(m => m.content)
    .join('\n');
  const blocks: PromptContextBlock[] = [];
  const re =
    /^Block (\d+)\n(?:.*\n)*?Cite as: (\[[^\n]*\])\n<document>\n([\s\S]*?)\n<\/document>/gm;
  for (const m of user.matchAll(re))
    blocks.push({ number: Number(m[1]), citeAs: m[2], text: m[3] });
  const question = /\nQuestion: ([\s\S]*)$/.exec(user)?.[1].trim() ?? '';
  return { blocks, question };
}

export const EXTRACTIVE_MODEL_NAME =
  'extractive-reference (not a language model)';

/**
 * Needs at least this many shared content keys (and a third of the question's) to answer; below
 * that it replies NOT_IN_DOCUMENTS, as the prompt tells a model to.
 */
const MIN_SHARED = 2;
const MIN_SHARE = 1 / 3;

export function extractiveModel(analyzers: Analyzers): ChatModel {
  return {
    model: EXTRACTIVE_MODEL_NAME,
    async complete(messages) {
      const { blocks, question } = parsePromptBlocks(messages);
      const wanted = contentKeys(question, analyzers);
      let best:
        | { sentence: string; citeAs: string; shared: number }
        | undefined;
      for (const block of blocks) {
        for (const sentence of splitSentences(block.text)) {
          const keys = contentKeys(sentence, analyzers);
          let shared = 0;
          for (const k of wanted) if (keys.has(k)) shared++;
          // Ties go to the earlier (better-ranked) block, as a model reading top-down would.
          if (!best || shared > best.shared)
            best = { sentence, citeAs: block.citeAs, shared };
        }
      }
      if (
        !best ||
        best.shared < MIN_SHARED ||
        best.shared < MIN_SHARE * wanted.size
      )
        return NOT_IN_DOCUMENTS_REPLY;
      // Brackets inside the quoted sentence would read as citation markers.
      const sentence = best.sentence
        .replace(/[[\]]/g, '')
        .replace(/[\s.]*$/, '');
      return `${sentence}. ${best.citeAs}`;
    },
  };
}
