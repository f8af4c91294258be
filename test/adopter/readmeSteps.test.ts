import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADOPTER_STEPS } from './steps';
import {
  applyFileStep,
  parseReadmeSteps,
  readReadmeSteps,
  stepsByName,
} from './readmeSteps';

const repo = path.resolve(__dirname, '../..');

describe('README adopter steps', () => {
  it('every step the adopter test runs is written, once, in the plugin READMEs', () => {
    for (const [readme, names] of Object.entries(ADOPTER_STEPS)) {
      const steps = readReadmeSteps(path.join(repo, readme));
      expect(stepsByName(steps, names).map(s => s.name)).toEqual(names);
      // No step in a README that the test would not run: what the README says is what it does.
      expect(steps.map(s => s.name).sort()).toEqual([...names].sort());
    }
  });

  it('reads actions and blocks, and refuses malformed steps', () => {
    const md = [
      '<!-- adopter-step: a | run -->',
      '```sh',
      'yarn add x',
      '```',
      'text',
      '<!-- adopter-step: b | insert-before src/index.ts :: backend.start(); -->',
      '```ts',
      "backend.add(import('x'));",
      '```',
      '<!-- adopter-step: c | start 127.0.0.1:5433 -->',
      '```sh',
      'yarn db',
      '```',
    ].join('\n');
    expect(parseReadmeSteps(md).map(s => [s.name, s.action, s.body])).toEqual([
      ['a', { kind: 'run' }, 'yarn add x'],
      [
        'b',
        {
          kind: 'insert-before',
          file: 'src/index.ts',
          anchor: 'backend.start();',
        },
        "backend.add(import('x'));",
      ],
      ['c', { kind: 'start', host: '127.0.0.1', port: 5433 }, 'yarn db'],
    ]);
    expect(() =>
      parseReadmeSteps('<!-- adopter-step: a | run -->\nno fence'),
    ).toThrow(/fenced block/);
    expect(() =>
      parseReadmeSteps('<!-- adopter-step: a | fly -->\n```\nx\n```'),
    ).toThrow(/cannot read/);
    expect(() =>
      parseReadmeSteps('<!-- adopter-step: a | run -->\n```\nx\n'),
    ).toThrow(/not closed/);
    expect(() => stepsByName(parseReadmeSteps(md), ['a', 'zz'])).toThrow(
      /"zz", found 0/,
    );
  });

  it('inserts before the anchor and appends written files', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'adopter-steps-'));
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(
      path.join(dir, 'src/index.ts'),
      'const backend = createBackend();\nbackend.start();\n',
    );
    const [insert] = parseReadmeSteps(
      '<!-- adopter-step: i | insert-before src/index.ts :: backend.start(); ' +
        '-->\n```ts\nbackend.add(x);\n```',
    );
    expect(applyFileStep(dir, insert)).toBe(
      'const backend = createBackend();\nbackend.add(x);\n\nbackend.start();\n',
    );
    const [write] = parseReadmeSteps(
      '<!-- adopter-step: w | write a.yaml -->\n```yaml\nb: 1\n```',
    );
    applyFileStep(dir, write);
    expect(applyFileStep(dir, write)).toBe('b: 1\nb: 1\n');
    const [missing] = parseReadmeSteps(
      '<!-- adopter-step: m | insert-before src/index.ts :: nowhere(); -->\n```ts\nx\n```',
    );
    expect(() => applyFileStep(dir, missing)).toThrow(
      /"nowhere\(\);" not found/,
    );
  });
});
