/**
 * JSON with object keys sorted (and entries whose value is undefined left out), so that equal
 * values give equal text whatever their key order. `sets`: array items sorted too, for values
 * whose arrays are sets.
 */
export function stableJson(value: unknown, sets = false): string {
  if (Array.isArray(value)) {
    const items = value.map(v => stableJson(v, sets));
    return `[${(sets ? items.sort() : items).join(',')}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries
      .map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v, sets)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
