/**
 * Affix conditions: a sequence of positions, each a character, `.` (any character) or a
 * class `[abc]` / `[^abc]` (a dot inside a class is a literal dot). A suffix condition must
 * match the end of the root (the word with the appendix removed and the strip added back),
 * a prefix condition its start; the root must have at least as many characters.
 */

interface Position {
  /** Code points of the class or the single character; null for `.` (any). */
  chars: ReadonlySet<number> | null;
  negated: boolean;
}

export type Condition = readonly Position[];

export class ConditionSyntaxError extends Error {}

export function parseCondition(text: string): Condition {
  if (text === '.') return [];
  const positions: Position[] = [];
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === '.') {
      positions.push({ chars: null, negated: false });
    } else if (c === '[') {
      const close = chars.indexOf(']', i + 1);
      if (close < 0)
        throw new ConditionSyntaxError(`missing ] in condition ${text}`);
      const negated = chars[i + 1] === '^';
      const members = chars.slice(negated ? i + 2 : i + 1, close);
      if (members.length === 0)
        throw new ConditionSyntaxError(`empty class in condition ${text}`);
      positions.push({
        chars: new Set(members.map(m => m.codePointAt(0)!)),
        negated,
      });
      i = close;
    } else if (c === ']' || c === '^') {
      throw new ConditionSyntaxError(`stray ${c} in condition ${text}`);
    } else {
      positions.push({ chars: new Set([c.codePointAt(0)!]), negated: false });
    }
  }
  return positions;
}

function accepts(position: Position, codePoint: number): boolean {
  return (
    position.chars === null ||
    position.chars.has(codePoint) !== position.negated
  );
}

export function matchesStart(condition: Condition, root: string): boolean {
  let index = 0;
  for (const position of condition) {
    if (index >= root.length) return false;
    const codePoint = root.codePointAt(index)!;
    if (!accepts(position, codePoint)) return false;
    index += codePoint > 0xffff ? 2 : 1;
  }
  return true;
}

export function matchesEnd(condition: Condition, root: string): boolean {
  let index = root.length;
  for (let p = condition.length - 1; p >= 0; p--) {
    if (index <= 0) return false;
    let codePoint = root.charCodeAt(index - 1);
    let width = 1;
    if (codePoint >= 0xdc00 && codePoint <= 0xdfff && index >= 2) {
      const high = root.charCodeAt(index - 2);
      if (high >= 0xd800 && high <= 0xdbff) {
        codePoint = root.codePointAt(index - 2)!;
        width = 2;
      }
    }
    if (!accepts(condition[p], codePoint)) return false;
    index -= width;
  }
  return true;
}
