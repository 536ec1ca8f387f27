/**
 * Who a queued request is for: the server it comes from (none in a direct message) and the user. The
 * queue serves servers in turn, and within a server its users in turn, so one busy server (or one user
 * clicking fast) cannot push everyone else back.
 */
export interface Owner {
  readonly guild?: string | null | undefined;
  readonly user: string;
}

/** A direct message is a server of its own for each user; requests of nobody in particular share one. */
function laneOf(owner: Owner | undefined): { server: string; user: string } {
  if (owner === undefined) return { server: '-', user: '-' };
  const guild = owner.guild ?? '';
  return guild === ''
    ? { server: `u:${owner.user}`, user: owner.user }
    : { server: `g:${guild}`, user: owner.user };
}

/**
 * A round-robin queue of two levels: servers take turns, and within a server its users take turns; each
 * user's own items stay in arrival order. The rings are Maps, whose insertion order is the turn order: the
 * one served goes to the back of its ring, a newcomer joins at the back.
 */
export class FairQueue<T> {
  /** Server → user → that user's items, oldest first. */
  readonly #servers = new Map<string, Map<string, T[]>>();
  readonly #lanes = new Map<T, { server: string; user: string }>();

  get size(): number {
    return this.#lanes.size;
  }

  push(item: T, owner: Owner | undefined): void {
    const lane = laneOf(owner);
    let users = this.#servers.get(lane.server);
    if (!users) {
      users = new Map();
      this.#servers.set(lane.server, users);
    }
    const items = users.get(lane.user);
    if (items) items.push(item);
    else users.set(lane.user, [item]);
    this.#lanes.set(item, lane);
  }

  /** Takes `item` out because it is served now: its user and its server go to the back of their rings. */
  served(item: T): void {
    const lane = this.#take(item);
    if (!lane) return;
    const users = this.#servers.get(lane.server);
    if (!users) return;
    const items = users.get(lane.user);
    if (items) {
      users.delete(lane.user);
      users.set(lane.user, items);
    }
    this.#servers.delete(lane.server);
    this.#servers.set(lane.server, users);
  }

  /** Takes `item` out without a turn (it gave up or was refused): the rings keep their order. */
  remove(item: T): void {
    this.#take(item);
  }

  /**
   * Every item, in the order the queue would serve them if nothing else arrived: one item of the first
   * user of the first server, then the next server's, and so on round the rings. O(items).
   */
  order(): T[] {
    const servers = [...this.#servers.values()].map((users) => ({
      users: [...users.values()].map((items) => ({ items, next: 0 })),
      turn: 0,
    }));
    const out: T[] = [];
    let ring = servers;
    while (ring.length > 0) {
      const still: typeof servers = [];
      for (const server of ring) {
        const user = server.users[server.turn % server.users.length];
        if (!user) continue;
        const item = user.items[user.next];
        if (item !== undefined) out.push(item);
        user.next += 1;
        if (user.next >= user.items.length) server.users.splice(server.turn % server.users.length, 1);
        else server.turn += 1;
        if (server.users.length > 0) still.push(server);
      }
      ring = still;
    }
    return out;
  }

  #take(item: T): { server: string; user: string } | undefined {
    const lane = this.#lanes.get(item);
    if (!lane) return undefined;
    this.#lanes.delete(item);
    const users = this.#servers.get(lane.server);
    const items = users?.get(lane.user);
    if (!users || !items) return lane;
    const index = items.indexOf(item);
    if (index >= 0) items.splice(index, 1);
    if (items.length === 0) users.delete(lane.user);
    if (users.size === 0) this.#servers.delete(lane.server);
    return lane;
  }
}
