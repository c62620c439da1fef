import { type HeldMatch, newHeldMatch } from './held-book';

const NONE: ReadonlySet<HeldMatch> = new Set();

/**
 * The matches an IngestBook holds, by id and by sport, the two kept in step:
 * a match is in exactly one sport's set, the one its `sportId` names. Part of
 * IngestBook; nothing else holds one.
 */
export class HeldMatches {
  private readonly byId = new Map<number, HeldMatch>();
  private readonly bySport = new Map<number, Set<HeldMatch>>();

  get(id: number): HeldMatch | undefined {
    return this.byId.get(id);
  }

  all(): IterableIterator<HeldMatch> {
    return this.byId.values();
  }

  /** The sport's matches, live: copy it before removing matches while going through it. */
  ofSport(sportId: number): ReadonlySet<HeldMatch> {
    return this.bySport.get(sportId) ?? NONE;
  }

  add(id: number, sportId: number): HeldMatch {
    const held = newHeldMatch(id, sportId);
    this.byId.set(id, held);
    this.sportSet(sportId).add(held);
    return held;
  }

  moveSport(held: HeldMatch, sportId: number): void {
    if (held.sportId === sportId) return;
    this.bySport.get(held.sportId)?.delete(held);
    held.sportId = sportId;
    this.sportSet(sportId).add(held);
  }

  remove(held: HeldMatch): void {
    this.byId.delete(held.id);
    this.bySport.get(held.sportId)?.delete(held);
  }

  /** Forgets a sport whose matches have all been removed. */
  dropSport(sportId: number): void {
    this.bySport.delete(sportId);
  }

  private sportSet(sportId: number): Set<HeldMatch> {
    let set = this.bySport.get(sportId);
    if (!set) {
      set = new Set();
      this.bySport.set(sportId, set);
    }
    return set;
  }
}
