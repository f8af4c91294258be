import { WordKeys } from './types';

/**
 * Approximate-LRU cache in two generations: new entries and hits go to the young map; when it
 * is full, the old generation is dropped and the young one becomes old. Word frequencies are
 * Zipfian, so frequent words stay while one-off words age out, with no per-hit reordering.
 * Holds at most `capacity` entries.
 */
export class BoundedCache<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly generationSize: number;

  constructor(capacity: number) {
    if (!Number.isFinite(capacity) || capacity < 2) {
      throw new Error(
        `BoundedCache capacity must be at least 2, got ${capacity}`,
      );
    }
    this.generationSize = Math.floor(capacity / 2);
  }

  get(key: K): V | undefined {
    const hit = this.young.get(key);
    if (hit !== undefined) return hit;
    const aged = this.old.get(key);
    if (aged !== undefined) {
      this.old.delete(key);
      this.set(key, aged);
    }
    return aged;
  }

  set(key: K, value: V): void {
    if (this.young.size >= this.generationSize && !this.young.has(key)) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }

  get size(): number {
    return this.young.size + this.old.size;
  }
}

/**
 * Memoises an analyzer's `compute(word)` in a BoundedCache. The cached keys are shared by every
 * caller, so they are frozen: no caller can alter another's.
 */
export function cachedWordKeys(
  compute: (word: string) => WordKeys,
  capacity: number = 200_000,
): (word: string) => WordKeys {
  const cache = new BoundedCache<string, WordKeys>(capacity);
  return word => {
    const cached = cache.get(word);
    if (cached) return cached;
    const keys = Object.freeze(compute(word));
    Object.freeze(keys.lemmas);
    cache.set(word, keys);
    return keys;
  };
}
