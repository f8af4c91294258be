/*
 * Evaluation questions: the shared dev questions (shared/eval/*.jsonl; format in its README.md)
 * and the issue-16 set with a fixed train/dev/test split (test/eval/items, README there).
 */
import fs from 'fs';
import path from 'path';
import { corporaDir } from '../../plugins/ask-docs-backend/src/ingestion/parsing/testUtils';
import {
  chatVariants,
  contextVariants,
  signOffVariants,
} from './questionContext';
import { formVariants } from './questionForm';
import { typingVariants } from './questionTyping';

export interface EvalItem {
  id: string;
  corpus: string;
  lang: string;
  question: string;
  answerable: boolean;
  gold: Array<{ page: string; heading?: string }>;
  evidence?: string;
  kind: string;
  note?: string;
  /** File it came from. */
  file: string;
  /**
   * Reporting group: 'shared-dev' for shared/eval, 'items-<split>' for test/eval/items, and
   * 'cross-<split>' for its items of "group": "cross" (asked in the other language than the
   * documents'). Tune on shared-dev and the train and dev splits only; the test splits are for
   * the final report.
   */
  set: string;
}

/** The issue-16 question set with its fixed split. */
export const ITEMS_DIR = path.join(__dirname, 'items');
export const EVAL_SETS = [
  'shared-dev',
  'items-train',
  'items-dev',
  'items-test',
  // The same questions in their other form (questionForm.ts), reported apart; run when named.
  'form-shared-dev',
  'form-train',
  'form-dev',
  'form-test',
  // Questions in one language about documents in the other (items with "group": "cross").
  'cross-train',
  'cross-dev',
  'cross-test',
  // The same questions inside a chat frame (questionContext.ts); run when named.
  'chat-shared-dev',
  'chat-train',
  'chat-dev',
  'chat-test',
  // The same questions after or before a sentence of context (questionContext.ts); when named.
  'context-shared-dev',
  'context-train',
  'context-dev',
  'context-test',
  // Train, dev and shared-dev questions typed without punctuation and signed off with thanks
  // (questionContext.ts); run when named. The test split's is its chat frame with "Cheers".
  'signoff-shared-dev',
  'signoff-train',
  'signoff-dev',
  // The same questions with one typing slip, and Czech ones without diacritics
  // (questionTyping.ts); run when named.
  'typo-shared-dev',
  'typo-train',
  'typo-dev',
  'typo-test',
  'plain-shared-dev',
  'plain-train',
  'plain-dev',
  'plain-test',
] as const;

/**
 * The sets a run without --sets measures: the hand-written questions in the documents'
 * language (the variants and the cross-lingual set only when named, so overall figures stay
 * comparable with earlier runs).
 */
export const DEFAULT_EVAL_SETS: readonly string[] = EVAL_SETS.filter(
  s => !/^(form|cross|chat|context|signoff|typo|plain)-/.test(s),
);

/**
 * Both sources: shared/eval (set 'shared-dev') and test/eval/items (set 'items-<split>'), and
 * their question-form variants (set 'form-<split>').
 */
export function loadAllEvalItems(): EvalItem[] {
  const written = [...loadEvalItems(), ...loadEvalItems({ dir: ITEMS_DIR })];
  const items = [
    ...written,
    ...formVariants(written),
    ...chatVariants(written),
    ...contextVariants(written),
    ...signOffVariants(written),
    ...typingVariants(written),
  ];
  const ids = new Set<string>();
  for (const i of items) {
    if (ids.has(i.id))
      throw new Error(`duplicate id ${i.id} across evaluation sources`);
    ids.add(i.id);
  }
  return items;
}

/** $ASK_DOCS_EVAL_DIR, else the eval/ folder beside the shared corpora. */
export function evalDir(): string {
  return (
    process.env.ASK_DOCS_EVAL_DIR ??
    path.join(path.dirname(corporaDir()), 'eval')
  );
}

export function loadEvalItems(
  options: { dir?: string; files?: string[] } = {},
): EvalItem[] {
  const dir = options.dir ?? evalDir();
  const files =
    options.files ??
    fs
      .readdirSync(dir)
      .filter(f => f.endsWith('.jsonl'))
      .sort();
  const items: EvalItem[] = [];
  const ids = new Set<string>();
  for (const file of files) {
    const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      const raw = JSON.parse(line);
      const where = `${file}:${i + 1}`;
      if (
        typeof raw.id !== 'string' ||
        typeof raw.question !== 'string' ||
        typeof raw.corpus !== 'string'
      ) {
        throw new Error(`${where}: id, question and corpus are required`);
      }
      if (ids.has(raw.id)) throw new Error(`${where}: duplicate id ${raw.id}`);
      ids.add(raw.id);
      const gold = Array.isArray(raw.gold) ? raw.gold : [];
      if (raw.answerable && gold.length === 0)
        throw new Error(`${where}: answerable item without gold pages`);
      if (
        raw.split !== undefined &&
        !['train', 'dev', 'test'].includes(raw.split)
      ) {
        throw new Error(`${where}: split must be train, dev or test`);
      }
      const group = raw.group ?? 'items';
      if (
        raw.group !== undefined &&
        (!['items', 'cross'].includes(raw.group) || raw.split === undefined)
      ) {
        throw new Error(`${where}: group must be items or cross, with a split`);
      }
      items.push({
        id: raw.id,
        corpus: raw.corpus,
        lang: raw.lang ?? 'unknown',
        question: raw.question,
        answerable: raw.answerable !== false,
        gold,
        evidence: raw.evidence,
        kind: raw.kind ?? 'unknown',
        note: raw.note,
        file,
        set: raw.split === undefined ? 'shared-dev' : `${group}-${raw.split}`,
      });
    });
  }
  return items;
}
