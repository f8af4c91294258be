import { AnyNode, Element, hasChildren, isTag } from 'domhandler';
import { getAttributeValue } from 'domutils';

/*
 * Small DOM queries written as loops rather than recursion: real pages can nest thousands of
 * unclosed inline tags, which would overflow the stack of a recursive walk.
 */

export function classList(el: Element): string[] {
  const value = getAttributeValue(el, 'class');
  return value ? value.split(/\s+/).filter(Boolean) : [];
}

export function hasAnyClass(el: Element, names: ReadonlySet<string>): boolean {
  return classList(el).some(c => names.has(c));
}

/**
 * First element (pre-order) below `roots` that passes `test`; subtrees for which `skip` holds are
 * not entered.
 */
export function findFirst(
  roots: readonly AnyNode[],
  test: (el: Element) => boolean,
  skip?: (el: Element) => boolean,
): Element | undefined {
  const stack: AnyNode[] = [...roots].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isTag(node)) {
      if (test(node)) return node;
      if (skip?.(node)) continue;
    }
    if (hasChildren(node)) {
      for (let i = node.children.length - 1; i >= 0; i--)
        stack.push(node.children[i]);
    }
  }
  return undefined;
}

/**
 * All elements (pre-order) below `roots` that pass `test`, not descending into matches or skipped
 * subtrees.
 */
export function findAll(
  roots: readonly AnyNode[],
  test: (el: Element) => boolean,
  skip?: (el: Element) => boolean,
): Element[] {
  const found: Element[] = [];
  const stack: AnyNode[] = [...roots].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isTag(node)) {
      if (test(node)) {
        found.push(node);
        continue;
      }
      if (skip?.(node)) continue;
    }
    if (hasChildren(node)) {
      for (let i = node.children.length - 1; i >= 0; i--)
        stack.push(node.children[i]);
    }
  }
  return found;
}

export function isHeadingTag(el: Element): boolean {
  return /^h[1-6]$/.test(el.name);
}
