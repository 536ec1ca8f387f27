import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TURF_EPOCH_MS, startSandbox, type Sandbox } from '../../../src/dev/sandbox/index.ts';
import { HOSTILE_LOOT_MODE, HOSTILE_MOTD } from '../../../src/dev/sandbox/clan-pages.ts';
import { MARKDOWN_CLAN } from '../../../src/dev/sandbox/names.ts';
import { fractionPlayed } from '../../../src/dev/sandbox/turf-live.ts';
import { get } from '../../support/sandbox.ts';
import { ManualClock } from '../../support/clock.ts';

/**
 * The sandbox's turf day moves with its clock: players play in windows of the UTC day, so today's
 * standings and contributions grow until midnight, when the day is finished and stays as it is.
 */
const DAY = 86_400_000;
const TODAY = 64;
const START = TURF_EPOCH_MS + TODAY * DAY;
const clock = new ManualClock(START + 12 * 3_600_000);
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => clock.now() });
});
afterAll(() => sandbox.close());

async function data<T>(path: string): Promise<T> {
  const reply = await get(`${sandbox.urls.base}${path}`);
  expect(reply.status, path).toBe(200);
  return reply.body.data as T;
}

type Row = { clan_id: number; clan_name: string; points: number; kills: number; deaths: number };
const board = (day = TODAY) =>
  data<{ rows: Row[] }>(`/territorial-wars/leaderboards/top-performing-clans?day=${day}`).then((b) => b.rows);
const totals = (rows: Row[]) => rows.reduce((sum, r) => sum + r.points, 0);

describe('turf standings over the sandbox day', () => {
  it('start empty at midnight, grow through the day and are whole at its end', async () => {
    clock.set(START);
    expect(await board()).toEqual([]);
    const seen: number[] = [];
    for (const hour of [3, 9, 15, 21, 23.99]) {
      clock.set(START + hour * 3_600_000);
      seen.push(totals(await board()));
    }
    expect(seen[0]).toBeGreaterThan(0);
    for (let i = 1; i < seen.length; i += 1) expect(seen[i]).toBeGreaterThan(seen[i - 1]!);
    clock.set(START + DAY + 5 * 3_600_000);
    const finished = await board(TODAY);
    expect(totals(finished)).toBeGreaterThanOrEqual(seen.at(-1)!);
    // A finished day no longer moves.
    clock.set(START + 3 * DAY);
    expect(await board(TODAY)).toEqual(finished);
  });

  it('moves a clan\u2019s members and positions, not only its sums', async () => {
    clock.set(START + 10 * 3_600_000);
    const morning = await board();
    clock.set(START + 20 * 3_600_000);
    const evening = await board();
    expect(evening.map((r) => r.clan_id)).not.toEqual(morning.map((r) => r.clan_id));
    const clanId = evening[0]!.clan_id;
    const players = async () =>
      data<{ players: Array<{ player_id: number; points: number }> }>(
        `/territorial-wars/clan/${clanId}/players`,
      ).then((p) => p.players);
    const late = await players();
    clock.set(START + 10 * 3_600_000);
    const early = await players();
    expect(late.reduce((s, p) => s + p.points, 0)).toBeGreaterThan(early.reduce((s, p) => s + p.points, 0));
    expect(late.length).toBeGreaterThanOrEqual(early.length);
  });

  it('plays each player in one window of 2 to 8 hours, starting within the first 17 hours', () => {
    for (let player = 1; player < 200; player += 1) {
      expect(fractionPlayed(1, TODAY, 0, player, 0)).toBe(0);
      expect(fractionPlayed(1, TODAY, 0, player, DAY)).toBe(1);
      const at = fractionPlayed(1, TODAY, 0, player, 12 * 3_600_000);
      expect(at).toBeGreaterThanOrEqual(0);
      expect(at).toBeLessThanOrEqual(1);
    }
  });
});

describe('clan pages in the sandbox', () => {
  it("serve the markdown clan's hostile message of the day and split mode", async () => {
    const clan = sandbox.world.clans.find((c) => c.name === MARKDOWN_CLAN)!;
    expect(await data(`/clans/${clan.id}/motd`)).toEqual({ motd: HOSTILE_MOTD });
    expect(await data(`/clans/${clan.id}/loot-config`)).toMatchObject({
      clan_id: clan.id,
      mode: HOSTILE_LOOT_MODE,
    });
    const other = sandbox.world.clans[0]!;
    expect(await data(`/clans/${other.id}/motd`)).toEqual({ motd: other.motd });
    const loot = await data<{ mode: string; leader_share: number; member_share: number }>(
      `/clans/${other.id}/loot-config`,
    );
    expect(['points', 'equal']).toContain(loot.mode);
    expect(loot.leader_share + loot.member_share).toBe(100);
  });
});
