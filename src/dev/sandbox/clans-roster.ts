import type { SandboxActivity } from './activity.ts';
import type { WorldIndex } from './lookup.ts';
import type { Clan, ClanMember, Player, World } from './world/types.ts';

// Clan rosters that move while the sandbox runs: roles change, the owner hands the clan over, a member's
// score passes a milestone, a player is renamed. Tests drive them explicitly; the `rosters` start option
// also makes one clan change on the sandbox clock (one change per tick, in a fixed cycle: a join, a
// promotion, a leave, a demotion, a score milestone, an owner change), worked out when a request arrives,
// never by a timer.

export interface RosterOptions {
  /** Every this many ms of the sandbox clock after start, the clan's roster changes once. */
  readonly everyMs: number;
  /** The clan that changes (exact name); default the world's sample clan. */
  readonly clan?: string;
}

export interface SandboxRosters {
  /**
   * Sets the role of a member of a clan (0 member to 3 owner, or any other value the game might send).
   * Role 3 hands the clan over: the old owner becomes a co-leader (2). Throws for a player in no clan.
   */
  setRole(playerName: string, role: number): void;
  /** Adds to the player's score (what the clan roster shows). */
  addScore(playerName: string, score: number): void;
  /** Renames the player everywhere the rosters show them; the old name no longer finds them. */
  rename(playerName: string, newName: string): void;
  /** The clan the `rosters` option changes, if any. */
  readonly scheduledClan: string | undefined;
}

const OWNER = 3;
const MAX_CATCH_UP_TICKS = 200;
const STEPS = ['join', 'promote', 'leave', 'demote', 'milestone', 'owner'] as const;

interface Schedule {
  readonly startMs: number;
  readonly everyMs: number;
  readonly clanId: number;
  nextTick: number;
}

/** The next score of the 1, 2.5, 5 × 10^k series above `score` (where clan bots set their milestones). */
function nextRound(score: number): number {
  for (let power = 1e4; power < 1e13; power *= 10)
    for (const step of [1, 2.5, 5]) if (step * power > score) return step * power;
  return score;
}

export class RosterLog implements SandboxRosters {
  readonly #world: World;
  readonly #index: WorldIndex;
  readonly #activity: SandboxActivity;
  readonly #schedule: Schedule | undefined;
  /** Members the schedule changed in its current cycle. */
  readonly #touched = new Set<number>();
  readonly scheduledClan: string | undefined;

  constructor(
    world: World,
    index: WorldIndex,
    activity: SandboxActivity,
    now: () => number,
    options?: RosterOptions,
  ) {
    this.#world = world;
    this.#index = index;
    this.#activity = activity;
    const clan = options && this.#clan(options.clan ?? world.samples.clan);
    if (options && (!Number.isFinite(options.everyMs) || options.everyMs <= 0))
      throw new RangeError('rosters.everyMs must be a positive number of ms');
    this.#schedule =
      options && clan
        ? { startMs: now(), everyMs: options.everyMs, clanId: clan.id, nextTick: 1 }
        : undefined;
    this.scheduledClan = clan?.name;
  }

  setRole(playerName: string, role: number): void {
    if (!Number.isSafeInteger(role) || role < 0) throw new RangeError('a role is a whole number from 0');
    const player = this.#player(playerName);
    const clan = this.#index.clanOf(player);
    if (!clan) throw new Error(`${player.name} is in no clan`);
    if (role === OWNER && clan.ownerId !== player.id) {
      this.#index.replaceClan({
        ...clan,
        ownerId: player.id,
        ownerName: player.name,
        members: clan.members.map((m) =>
          m.playerId === player.id ? { ...m, role } : m.playerId === clan.ownerId ? { ...m, role: 2 } : m,
        ),
      });
      return;
    }
    this.#index.replaceClan({
      ...clan,
      members: clan.members.map((m) => (m.playerId === player.id ? { ...m, role } : m)),
    });
  }

  addScore(playerName: string, score: number): void {
    if (!Number.isSafeInteger(score) || score < 0)
      throw new RangeError('score must be a whole number from 0');
    const player = this.#player(playerName);
    this.#index.replacePlayer({ ...player, stats: { ...player.stats, score: player.stats.score + score } });
  }

  rename(playerName: string, newName: string): void {
    const player = this.#player(playerName);
    if (newName === '' || this.#index.player(newName)) throw new Error(`the name ${newName} is taken`);
    this.#index.renamePlayer(player, newName);
    const clan = this.#index.clanOf(player);
    if (!clan) return;
    this.#index.replaceClan({
      ...clan,
      ...(clan.ownerId === player.id ? { ownerName: newName } : {}),
      members: clan.members.map((m) => (m.playerId === player.id ? { ...m, playerName: newName } : m)),
    });
  }

  /** Makes the scheduled changes due by `nowMs`, oldest tick first. */
  advance(nowMs: number): void {
    const schedule = this.#schedule;
    if (!schedule) return;
    const lastDue = Math.floor((nowMs - schedule.startMs) / schedule.everyMs);
    if (lastDue < schedule.nextTick) return;
    const first = Math.max(schedule.nextTick, lastDue - MAX_CATCH_UP_TICKS + 1);
    schedule.nextTick = lastDue + 1;
    for (let tick = first; tick <= lastDue; tick++) {
      const clan = this.#index.clanById(schedule.clanId);
      const step = STEPS[(tick - 1) % STEPS.length];
      if (clan && step) this.#step(clan, step);
    }
  }

  /**
   * One scheduled change; a step with nobody to change is skipped. Each member changes at most once a
   * cycle, so that no step undoes another (a promotion, then a demotion of the same member) within one read.
   */
  #step(clan: Clan, step: (typeof STEPS)[number]): void {
    if (step === 'join') this.#touched.clear();
    const byName = (a: ClanMember, b: ClanMember) => a.playerName.localeCompare(b.playerName);
    const others = clan.members
      .filter((m) => m.playerId !== clan.ownerId && !this.#touched.has(m.playerId))
      .sort(byName);
    const touch = (member: ClanMember | undefined) => member && this.#touched.add(member.playerId);
    switch (step) {
      case 'join': {
        const joiner = this.#world.players
          .filter((p) => p.clanId === null && !p.banned)
          .sort((a, b) => a.name.localeCompare(b.name))[0];
        if (joiner) this.#activity.setClan(joiner.name, clan.name);
        if (joiner) this.#touched.add(joiner.id);
        return;
      }
      case 'promote': {
        const member = others.find((m) => m.role < 2);
        touch(member);
        if (member) this.setRole(member.playerName, member.role + 1);
        return;
      }
      case 'leave': {
        const member = others.filter((m) => m.role === 0).at(-1);
        touch(member);
        if (member && clan.members.length > 1) this.#activity.setClan(member.playerName, '');
        return;
      }
      case 'demote': {
        const member = others.find((m) => m.role > 0);
        touch(member);
        if (member) this.setRole(member.playerName, member.role - 1);
        return;
      }
      case 'milestone': {
        const member = others[0];
        touch(member);
        const player = member && this.#index.playerById(member.playerId);
        if (player) this.addScore(player.name, nextRound(player.stats.score) - player.stats.score + 1);
        return;
      }
      case 'owner': {
        const heir = [...others].sort((a, b) => b.role - a.role || byName(a, b))[0];
        touch(heir);
        if (heir) this.setRole(heir.playerName, OWNER);
        return;
      }
    }
  }

  #player(name: string): Player {
    const player = this.#index.player(name);
    if (!player) throw new Error(`the sandbox world has no player named ${JSON.stringify(name)}`);
    return player;
  }

  #clan(name: string): Clan {
    const clan = this.#index.clan(name);
    if (!clan) throw new Error(`the sandbox world has no clan named ${JSON.stringify(name)}`);
    return clan;
  }
}
