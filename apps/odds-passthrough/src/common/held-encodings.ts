/**
 * Encodings of match states (snapshot frames, REST answers) kept for a short
 * while, so that a burst of clients asking for one state gets it encoded
 * once. An encoding serves again only while `builtFor` says it is of the
 * state asked for; all of them are let go `heldForMs` after the first was
 * built, and all at once when `limit` would be passed, so a big book is never
 * kept a second time as JSON.
 */
export class HeldEncodings<T> {
  private readonly held = new Map<number, T>();
  private expiry?: NodeJS.Timeout;

  constructor(
    private readonly heldForMs: number,
    private readonly limit = Number.POSITIVE_INFINITY,
  ) {}

  /** The encoding held for `matchId` when `builtFor` accepts it, else a new one from `build`. */
  get(matchId: number, builtFor: (held: T) => boolean, build: () => T): T {
    const held = this.held.get(matchId);
    if (held !== undefined && builtFor(held)) return held;
    const built = build();
    if (this.held.size >= this.limit) this.held.clear();
    this.held.set(matchId, built);
    if (!this.expiry) {
      this.expiry = setTimeout(() => this.clear(), this.heldForMs);
      this.expiry.unref();
    }
    return built;
  }

  /** Encodings held now. */
  get size(): number {
    return this.held.size;
  }

  clear(): void {
    clearTimeout(this.expiry);
    this.expiry = undefined;
    this.held.clear();
  }
}
