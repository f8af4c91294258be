/*
 * The answer-quality judge (test/eval/answerJudge.ts) on the product's real answer step: each
 * citation error type must be detected when a scripted model commits it, and not reported when
 * it does not. The extractive reference model must read the product's real prompt.
 */
import {
  answerQuestion,
  ChatModel,
  RetrievedChunk,
} from '../../plugins/ask-docs-backend/src/answer';
import {
  buildPrompt,
  NOT_IN_DOCUMENTS_REPLY,
} from '../../plugins/ask-docs-backend/src/answer/prompt';
import { chunk } from '../../plugins/ask-docs-backend/src/answer/testChunks';
import { Analyzers } from '../../plugins/ask-docs-backend/src/language';
import {
  contentKeys,
  judgeAnswer,
  summariseAnswers,
} from '../eval/answerJudge';
import { evalAnalyzers } from '../eval/buildIndex';
import { extractiveModel, parsePromptBlocks } from '../eval/extractiveModel';

const ROLLBACK =
  'To roll back a release, run the deploy pipeline with the previous image tag. The rollback ' +
  'keeps the database schema unchanged.';
const CANARY =
  'Canary releases send five percent of traffic to the new version for thirty minutes before ' +
  'promotion.';
const chunks: RetrievedChunk[] = [
  chunk({
    title: 'Release process',
    sectionPath: 'Release process › Rollback',
    text: ROLLBACK,
    rank: 1,
  }),
  chunk({ title: 'Canary deployments', text: CANARY, rank: 2 }),
];
const pageOf = (chunkId: string) => chunkId.split('#')[0];
const GOLD = new Set(['doc:Release process']);
const EVIDENCE = 'run the deploy pipeline with the previous image tag';

const scripted = (text: string): ChatModel => ({
  model: 'scripted',
  complete: async () => text,
});

let analyzers: Analyzers;
beforeAll(async () => {
  analyzers = await evalAnalyzers();
});

async function judge(
  model: ChatModel,
  opts: { answerable?: boolean; question?: string } = {},
) {
  const question = opts.question ?? 'How do I roll back a release?';
  const result = await answerQuestion({ question, chunks, model });
  return judgeAnswer({
    answerable: opts.answerable ?? true,
    evidence: opts.answerable === false ? undefined : EVIDENCE,
    gold: opts.answerable === false ? new Set() : GOLD,
    result,
    chunks,
    pageOf,
    analyzers,
  });
}

describe('answer-quality judge', () => {
  it.each<[string, string, object]>([
    [
      'a faithful answer citing the gold document is correct, with its citation supported',
      'Run the deploy pipeline with the previous image tag. [Release process › Rollback]',
      {
        outcome: 'correct',
        citesGold: true,
        citations: [{ page: 'doc:Release process', supported: true }],
        unsupportedCitations: 0,
      },
    ],
    [
      'the right answer citing another document is "good answer, wrong source", and that ' +
        'citation is unsupported',
      'Run the deploy pipeline with the previous image tag. [Canary deployments]',
      {
        outcome: 'good_answer_wrong_source',
        citesGold: false,
        goldSent: true,
        citations: [{ page: 'doc:Canary deployments', supported: false }],
        unsupportedCitations: 1,
      },
    ],
    [
      'a claim the cited gold document does not contain is an unsupported citation, not a ' +
        'correct answer',
      'Rollbacks require approval from two security officers on weekends. [Release process]',
      { outcome: 'right_source_incomplete_answer', unsupportedCitations: 1 },
    ],
    [
      'a correct answer plus one invented cited claim keeps the error visible',
      'Run the deploy pipeline with the previous image tag [Release process]. Canary releases ' +
        'page the on-call engineer by telephone [Canary deployments].',
      {
        outcome: 'correct_with_unsupported_citation',
        citations: [{ supported: true }, { supported: false }],
      },
    ],
    [
      'short claims are not judged either way',
      'Use the pipeline [Release process]. Run the deploy pipeline with the previous image tag ' +
        '[Release process].',
      {
        citations: [{ supported: null }, { supported: true }],
        unsupportedCitations: 0,
      },
    ],
  ])('%s', async (_name, answer, expected) => {
    // Arrays match element by element and in length: each citation is checked.
    expect(await judge(scripted(answer))).toMatchObject(expected);
  });

  it('refusals and unanswerable questions are classified by status', async () => {
    expect((await judge(scripted(NOT_IN_DOCUMENTS_REPLY))).outcome).toBe(
      'false_refusal',
    );
    expect((await judge(scripted('No citation at all.'))).outcome).toBe(
      'evidence_only',
    );
    expect(
      (await judge(scripted(NOT_IN_DOCUMENTS_REPLY), { answerable: false }))
        .outcome,
    ).toBe('correct_refusal');
    expect(
      (
        await judge(scripted('Run the deploy pipeline. [Release process]'), {
          answerable: false,
        })
      ).outcome,
    ).toBe('answered_unanswerable');
  });

  it('summarises the error types separately', async () => {
    const judged = [
      {
        answerable: true,
        judgement: await judge(
          scripted(
            'Run the deploy pipeline with the previous image tag. [Release process]',
          ),
        ),
      },
      {
        answerable: true,
        judgement: await judge(
          scripted(
            'Run the deploy pipeline with the previous image tag. [Canary deployments]',
          ),
        ),
      },
      {
        answerable: true,
        judgement: await judge(
          scripted(
            'Rollbacks require approval from two security officers. [Release process]',
          ),
        ),
      },
      {
        answerable: false,
        judgement: await judge(scripted(NOT_IN_DOCUMENTS_REPLY), {
          answerable: false,
        }),
      },
    ];
    const s = summariseAnswers(judged);
    expect(s).toMatchObject({
      answerable: 3,
      unanswerable: 1,
      goodAnswerWrongSource: 1,
      unsupportedCitations: 2,
      answersWithUnsupportedCitation: 2,
    });
    expect(s.outcomes).toMatchObject({
      correct: 1,
      good_answer_wrong_source: 1,
      right_source_incomplete_answer: 1,
      correct_refusal: 1,
    });
    expect(s.goldSentNotCited).toBe(1);
  });

  it('compares Czech inflected forms by lemma (psa ~ pes), not by surface', () => {
    const claim = contentKeys('Viděli jsme psa.', analyzers);
    const doc = contentKeys('Pes je doma.', analyzers);
    expect([...claim].some(k => doc.has(k))).toBe(true);
    expect(
      [...contentKeys('pesto', analyzers)].some(k =>
        contentKeys('pes', analyzers).has(k),
      ),
    ).toBe(false);
  });
});

describe('extractive reference model', () => {
  it(`reads the blocks of the real prompt and answers with a quoted sentence citing its \
block`, async () => {
    const prompt = buildPrompt('How do I roll back a release?', chunks);
    const parsed = parsePromptBlocks(prompt.messages);
    expect(parsed.question).toBe('How do I roll back a release?');
    expect(parsed.blocks.map(b => b.citeAs)).toEqual(
      prompt.blocks.map(b => b.citeAs),
    );
    expect(parsed.blocks[0].text).toBe(ROLLBACK);

    const result = await answerQuestion({
      question: 'How do I roll back a release?',
      chunks,
      model: extractiveModel(analyzers),
    });
    expect(result.status).toBe('answered');
    expect(result.answer).toMatch(
      new RegExp(
        /^To roll back a release, run the deploy pipeline with the previous image tag\. /
          .source + /\[Release process › Rollback\]$/.source,
      ),
    );
    expect(result.sources.map(s => s.title)).toEqual(['Release process']);
  });

  it('says NOT_IN_DOCUMENTS when no sentence shares enough with the question', async () => {
    const result = await answerQuestion({
      question: 'Which cafeteria serves vegan lunch?',
      chunks,
      model: extractiveModel(analyzers),
    });
    expect(result.rawOutput).toBe(NOT_IN_DOCUMENTS_REPLY);
    expect(result.status).toBe('not_in_knowledge_base');
  });
});
