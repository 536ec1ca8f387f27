import { DiscordAPIError } from 'discord.js';
import type { RoleRest } from '../../src/features/roles/sync.ts';

/**
 * Discord's member and member-role routes in memory, for role syncs driven step by step: a server can be
 * made to answer an error code, and the reads of chosen members can be held until the test lets them go.
 * No network: the sync under test gets it as its REST client.
 */
export interface HeldRead {
  readonly guildId: string;
  readonly userId: string;
  release(): void;
}

export class FakeDiscord implements RoleRest {
  readonly #members = new Map<string, Map<string, Set<string>>>();
  /** Per server: the code every read and change answers (10004 Unknown Guild, 50001, 50013 on changes). */
  readonly failing = new Map<string, number>();
  /** Members whose reads wait for the test (`held`, then `release()`). */
  hold: (guildId: string, userId: string) => boolean = () => false;
  readonly #held: HeldRead[] = [];
  #onHeld: (() => void) | undefined;
  readonly changes: Array<{ guildId: string; userId: string; roleId: string; action: 'add' | 'remove' }> = [];

  addMember(guildId: string, userId: string, roles: readonly string[] = []): void {
    const guild = this.#members.get(guildId) ?? new Map<string, Set<string>>();
    guild.set(userId, new Set(roles));
    this.#members.set(guildId, guild);
  }

  roles(guildId: string, userId: string): string[] {
    return [...(this.#members.get(guildId)?.get(userId) ?? [])].sort();
  }

  /** The next read held (at once when one waits already). */
  async nextHeld(): Promise<HeldRead> {
    for (;;) {
      const first = this.#held.shift();
      if (first) return first;
      await new Promise<void>((resolve) => (this.#onHeld = resolve));
    }
  }

  #error(code: number, method: string, url: string): DiscordAPIError {
    const status = code === 10004 || code === 10007 ? 404 : 403;
    return new DiscordAPIError({ code, message: `error ${code}` }, code, status, method, url, {});
  }

  #parse(route: string) {
    const match = /^\/guilds\/(\d+)\/members\/(\d+)(?:\/roles\/(\d+))?$/.exec(route);
    if (!match) throw new Error(`the fake Discord has no route ${route}`);
    return { guildId: match[1] ?? '', userId: match[2] ?? '', roleId: match[3] };
  }

  async get(route: `/${string}`): Promise<unknown> {
    const { guildId, userId } = this.#parse(route);
    if (this.hold(guildId, userId)) {
      await new Promise<void>((release) => {
        this.#held.push({ guildId, userId, release });
        this.#onHeld?.();
      });
    }
    const code = this.failing.get(guildId);
    if (code === 10004 || code === 50001) throw this.#error(code, 'GET', route);
    const roles = this.#members.get(guildId)?.get(userId);
    if (!roles) throw this.#error(10007, 'GET', route);
    return { roles: [...roles], user: { id: userId } };
  }

  async #change(route: `/${string}`, action: 'add' | 'remove'): Promise<unknown> {
    const { guildId, userId, roleId } = this.#parse(route);
    const method = action === 'add' ? 'PUT' : 'DELETE';
    const code = this.failing.get(guildId);
    if (code !== undefined) throw this.#error(code, method, route);
    const roles = this.#members.get(guildId)?.get(userId);
    if (!roles || roleId === undefined) throw this.#error(10007, method, route);
    if (action === 'add') roles.add(roleId);
    else roles.delete(roleId);
    this.changes.push({ guildId, userId, roleId, action });
    return undefined;
  }

  put(route: `/${string}`): Promise<unknown> {
    return this.#change(route, 'add');
  }

  delete(route: `/${string}`): Promise<unknown> {
    return this.#change(route, 'remove');
  }
}
