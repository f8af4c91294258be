/*
 * The Installation steps of the plugin READMEs, as data: each step is an HTML comment
 * `<!-- adopter-step: NAME | ACTION ARGS -->` (invisible when rendered) followed by the fenced
 * block the reader sees. The adopter test executes exactly these blocks (one source).
 */
import fs from 'node:fs';

export type StepAction =
  /** Every line of the block is a shell command run in the app's root folder. */
  | { kind: 'run' }
  /**
   * The block is a long-running command started in the background; ready when host:port accepts.
   */
  | { kind: 'start'; host: string; port: number }
  /** The block is inserted into `file` before the first line containing `anchor`. */
  | { kind: 'insert-before'; file: string; anchor: string }
  /** The block is written to `file` (created; appended to when it exists). */
  | { kind: 'write'; file: string };

export interface ReadmeStep {
  name: string;
  action: StepAction;
  body: string;
  /** Where the step is written, for error messages. */
  source: string;
}

const MARKER = /^<!--\s*adopter-step:\s*([a-z0-9-]+)\s*\|\s*(.+?)\s*-->\s*$/;

function parseAction(text: string, where: string): StepAction {
  const [kind, ...rest] = text.split(/\s+/);
  const args = rest.join(' ');
  if (kind === 'run' && !args) return { kind };
  if (kind === 'write' && rest.length === 1) return { kind, file: rest[0] };
  if (kind === 'start') {
    const m = /^([\w.-]+):(\d+)$/.exec(args);
    if (m) return { kind, host: m[1], port: Number(m[2]) };
  }
  if (kind === 'insert-before') {
    const m = /^(\S+)\s+::\s+(.+)$/.exec(args);
    if (m) return { kind, file: m[1], anchor: m[2] };
  }
  throw new Error(`${where}: cannot read adopter step action "${text}"`);
}

/** Parses the steps of one README, in document order. */
export function parseReadmeSteps(
  markdown: string,
  file = 'README.md',
): ReadmeStep[] {
  const lines = markdown.split('\n');
  const steps: ReadmeStep[] = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = MARKER.exec(lines[i]);
    if (!marker) continue;
    const where = `${file}:${i + 1}`;
    const fence = /^(```+)\w*\s*$/.exec(lines[i + 1] ?? '');
    if (!fence)
      throw new Error(
        `${where}: an adopter step must be followed by a fenced block`,
      );
    const end = lines.findIndex((l, j) => j > i + 1 && l.trim() === fence[1]);
    if (end < 0)
      throw new Error(`${where}: the step's fenced block is not closed`);
    const body = lines.slice(i + 2, end).join('\n');
    if (!body.trim()) throw new Error(`${where}: the step's block is empty`);
    steps.push({
      name: marker[1],
      action: parseAction(marker[2], where),
      body,
      source: where,
    });
    i = end;
  }
  return steps;
}

export function readReadmeSteps(readmePath: string): ReadmeStep[] {
  return parseReadmeSteps(fs.readFileSync(readmePath, 'utf8'), readmePath);
}

/** Steps by name; a missing or duplicated name is an error, so a README edit cannot skip one. */
export function stepsByName(
  steps: ReadmeStep[],
  names: string[],
): ReadmeStep[] {
  return names.map(name => {
    const found = steps.filter(s => s.name === name);
    if (found.length !== 1) {
      throw new Error(
        `expected exactly one adopter step "${name}", found ${found.length}`,
      );
    }
    return found[0];
  });
}

/** Applies a file-editing step in the app folder; returns the new file text. */
export function applyFileStep(appDir: string, step: ReadmeStep): string {
  const { action } = step;
  if (action.kind !== 'insert-before' && action.kind !== 'write') {
    throw new Error(`${step.source}: "${step.name}" is not a file step`);
  }
  const file = `${appDir}/${action.file}`;
  if (action.kind === 'write') {
    const before = fs.existsSync(file)
      ? `${fs.readFileSync(file, 'utf8').trimEnd()}\n`
      : '';
    fs.writeFileSync(file, `${before}${step.body}\n`);
  } else {
    const text = fs.readFileSync(file, 'utf8');
    const lines = text.split('\n');
    const at = lines.findIndex(l => l.includes(action.anchor));
    if (at < 0)
      throw new Error(
        `${step.source}: "${action.anchor}" not found in ${action.file}`,
      );
    lines.splice(at, 0, step.body, '');
    fs.writeFileSync(file, lines.join('\n'));
  }
  return fs.readFileSync(file, 'utf8');
}
