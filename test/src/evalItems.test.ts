import fs from 'fs';
import os from 'os';
import path from 'path';
import { loadEvalItems } from '../eval/evalItems';

/** loadEvalItems over one file of the given JSON lines. */
function load(lines: object[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eval-items-'));
  try {
    fs.writeFileSync(
      path.join(dir, 'items.jsonl'),
      lines.map(l => JSON.stringify(l)).join('\n'),
    );
    return loadEvalItems({ dir });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const base = {
  corpus: 'postgresql-docs',
  lang: 'en',
  answerable: true,
  gold: [{ page: 'sql-vacuum.html', heading: 'Description' }],
};

describe('evaluation item sets', () => {
  it('reports items by split, the cross-lingual group apart, shared ones as shared-dev', () => {
    const items = load([
      { ...base, id: 'a-001', question: 'q one', split: 'train' },
      {
        ...base,
        id: 'a-002',
        question: 'q two',
        split: 'test',
        group: 'items',
      },
      {
        ...base,
        id: 'c-001',
        question: 'q three',
        split: 'dev',
        group: 'cross',
      },
      { ...base, id: 's-001', question: 'q four' },
    ]);
    expect(items.map(i => i.set)).toEqual([
      'items-train',
      'items-test',
      'cross-dev',
      'shared-dev',
    ]);
  });

  it('rejects an unknown group, and a group without a split', () => {
    expect(() =>
      load([{ ...base, id: 'a-001', question: 'q', split: 'dev', group: 'x' }]),
    ).toThrow(/items\.jsonl:1: group must be items or cross, with a split/);
    expect(() =>
      load([{ ...base, id: 'a-001', question: 'q', group: 'cross' }]),
    ).toThrow(/group must be items or cross, with a split/);
  });
});
