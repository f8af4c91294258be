import type { EvalItem } from '../eval/evalItems';

/** An answerable English training item, with `over` replacing any of its fields. */
export const evalItem = (over: Partial<EvalItem> = {}): EvalItem => ({
  id: 'pg-001',
  corpus: 'postgresql-docs',
  lang: 'en',
  question: 'how do I truncate several tables together',
  answerable: true,
  gold: [{ page: 'sql-truncate.html' }],
  kind: 'howto',
  file: 'pg.jsonl',
  set: 'items-train',
  ...over,
});
