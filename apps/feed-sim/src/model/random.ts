/** FNV-1a, so a label (a match id, a purpose) can seed its own stream. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A small seeded generator (mulberry32). Every entity draws from a stream
 * forked by its own label, so adding one match never shifts another's story:
 * the simulation stays reproducible from SIM_SEED as the catalog rolls.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  static of(seed: number, label: string): Random {
    return new Random(hashString(`${seed}:${label}`));
  }

  fork(label: string): Random {
    return new Random(hashString(`${this.state}:${label}`));
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks a key with probability proportional to its weight. */
  weighted<K extends string | number>(weights: ReadonlyArray<readonly [K, number]>): K {
    const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [key, weight] of weights) {
      roll -= weight;
      if (roll < 0) return key;
    }
    return weights[weights.length - 1][0];
  }
}
