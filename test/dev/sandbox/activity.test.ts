import { afterEach, describe, expect, it } from 'vitest';
import {
  startSandbox,
  type Player,
  type Sandbox,
  type SandboxOptions,
} from '../../../src/dev/sandbox/index.ts';
import { FIXED_NOW, bearer, get, rows, withKey, type Reply } from '../../support/sandbox.ts';

const HOUR = 3_600_000;
const enc = encodeURIComponent;
const started: Sandbox[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

interface Harness {
  readonly sandbox: Sandbox;
  /** The manual clock the sandbox reads. */
  readonly clock: { ms: number };
  api(path: string): Promise<Reply>;
  profile(name: string): Promise<Record<string, number | string | RankedRow[]>>;
}

interface RankedRow {
  region: number;
  mmr: number;
  wins: number;
  losses: number;
  kills: number;
  deaths: number;
  assists: number;
  score: number;
  damage_done: number;
  time_played: number;
}

interface MatchParticipant {
  player_name: string;
  kills: number;
  deaths: number;
  assists: number;
  score: number;
  victory: number;
  team: number;
  play_time: number;
}

async function start(options: SandboxOptions = {}): Promise<Harness> {
  const clock = { ms: FIXED_NOW };
  const sandbox = await startSandbox({
    now: () => clock.ms,
    rateLimit: { limit: 100_000, windowMs: 60_000 },
    ...options,
  });
  started.push(sandbox);
  const api = (path: string): Promise<Reply> =>
    get(`${sandbox.urls.base}${path}`, withKey(sandbox.keys.default));
  const profile = async (name: string) => {
    const reply = await api(`/api/player/${enc(name)}`);
    expect(reply.status, name).toBe(200);
    return reply.body.data as Record<string, number | string | RankedRow[]>;
  };
  return { sandbox, clock, api, profile };
}

function playerNamed(sandbox: Sandbox, name: string): Player {
  const player = sandbox.world.players.find((p) => p.name === name);
  if (!player) throw new Error(`no player ${name}`);
  return player;
}

/** Match ids of a reply in order, with every digit (JSON.parse would round them). */
function matchIds(text: string): bigint[] {
  return [...text.matchAll(/"match_id":(\d+)/g)].map((m) => BigInt(m[1]!));
}

function level(score: number): number {
  return Math.max(1, Math.floor(0.03 * Math.sqrt(score)));
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function rankedIn(profile: Record<string, unknown>, region: number): RankedRow | undefined {
  return rows<RankedRow>(profile['ranked']).find((r) => r.region === region);
}

/** The region's whole ranked board (at most 20 pages), checked to run by mmr with consecutive positions. */
async function board(h: Harness, region: number): Promise<Record<string, number | string>[]> {
  const all: Record<string, number | string>[] = [];
  for (let page = 1; page <= 20; page++) {
    const entries = rows<Record<string, number | string>>(
      (await h.api(`/api/leaderboard/${region}?page=${page}`)).body.data.entries,
    );
    if (entries.length === 0) break;
    all.push(...entries);
  }
  const mmr = all.map((e) => e['mmr'] as number);
  expect(mmr).toEqual([...mmr].sort((a, b) => b - a));
  expect(all.map((e) => e['position'])).toEqual(all.map((_, i) => i + 1));
  return all;
}

/** The player's row on the region's ranked board. */
async function boardRow(
  h: Harness,
  region: number,
  name: string,
): Promise<Record<string, number> | undefined> {
  return (await board(h, region)).find((e) => e['player_name'] === name) as
    Record<string, number> | undefined;
}

describe('activity: play', () => {
  it('shows a finished ranked match in the profile, the match lists, the match and the boards', async () => {
    const h = await start();
    const { sandbox } = h;
    const name = sandbox.world.samples.rankedPlayer;
    const region = playerNamed(sandbox, name).homeRegion;
    const before = await h.profile(name);
    const rankedBefore = rankedIn(before, region);
    expect(rankedBefore).toBeDefined();
    const lastSeeded = sandbox.world.matches.map((m) => BigInt(m.id)).reduce((a, b) => (a > b ? a : b));

    h.clock.ms += HOUR;
    const id = sandbox.activity.play(name, {
      kills: 20,
      deaths: 10,
      assists: 5,
      score: 3_000,
      victory: 1,
      mmrChange: 25,
    });
    expect(typeof id).toBe('bigint');
    expect(id > lastSeeded).toBe(true);

    const after = await h.profile(name);
    const n = (field: string): number => (after[field] as number) - (before[field] as number);
    expect([n('score'), n('kills'), n('deaths'), n('assists'), n('games'), n('wins'), n('losses')]).toEqual([
      3_000, 20, 10, 5, 1, 1, 0,
    ]);
    expect(after['level']).toBe(level(after['score'] as number));
    expect(after['kdr']).toBe(
      Math.round(((after['kills'] as number) / (after['deaths'] as number)) * 100) / 100,
    );
    expect(after['kpg']).toBe(
      Math.round(((after['kills'] as number) / (after['games'] as number)) * 100) / 100,
    );

    const matches = await h.api(`/api/player/${enc(name)}/matches`);
    expect(matchIds(matches.text)[0]).toBe(id);
    expect(matches.body.data.matches[0]).toMatchObject({
      date: iso(h.clock.ms),
      season: sandbox.world.currentSeason,
      region,
      kills: 20,
      deaths: 10,
      assists: 5,
      score: 3_000,
      victory: 1,
    });
    expect(matchIds((await h.api(`/api/player/${enc(name)}/matches?season=0`)).text)[0]).toBe(id);
    const older = await h.api(`/api/player/${enc(name)}/matches?season=${sandbox.world.previousSeason}`);
    expect(matchIds(older.text)).not.toContain(id);

    const details = await h.api(`/api/match/${id}`);
    expect(details.status).toBe(200);
    expect(details.text).toContain(`"match_id":${id},`);
    expect(details.body.data).toMatchObject({ season: sandbox.world.currentSeason, region });
    const participants = rows<MatchParticipant>(details.body.data.participants);
    expect(participants).toHaveLength(8);
    expect(new Set(participants.map((p) => p.player_name)).size).toBe(8);
    for (let i = 1; i < participants.length; i++) {
      const [a, b] = [participants[i - 1]!, participants[i]!];
      expect(a.team < b.team || (a.team === b.team && a.score >= b.score)).toBe(true);
    }
    const mine = participants.find((p) => p.player_name === name)!;
    expect(mine).toMatchObject({ kills: 20, deaths: 10, assists: 5, score: 3_000, victory: 1 });
    for (const p of participants) expect(p.victory).toBe(p.team === mine.team ? 1 : 0);
    expect(participants.filter((p) => p.team === mine.team)).toHaveLength(4);

    const ranked = rankedIn(after, region)!;
    expect(ranked).toMatchObject({
      mmr: rankedBefore!.mmr + 25,
      wins: rankedBefore!.wins + 1,
      losses: rankedBefore!.losses,
      kills: rankedBefore!.kills + 20,
      deaths: rankedBefore!.deaths + 10,
      assists: rankedBefore!.assists + 5,
      score: rankedBefore!.score + 3_000,
      time_played: rankedBefore!.time_played + mine.play_time,
    });
    const { time_played: _seconds, region: _region, ...boardFields } = ranked;
    expect(await boardRow(h, region, name)).toMatchObject(boardFields);

    // Every other participant played it too.
    for (const other of participants.filter((p) => p.player_name !== name)) {
      const theirs = await h.api(`/api/player/${enc(other.player_name)}/matches`);
      expect(matchIds(theirs.text)[0], other.player_name).toBe(id);
    }

    // The game tier and the token tiers read the same numbers.
    const game = await get(`${sandbox.urls.base}/players/${enc(name)}`);
    expect(JSON.parse(game.body.data.stats as string)).toMatchObject({
      s: after['score'],
      k: after['kills'],
      d: after['deaths'],
      g: after['games'],
      w: after['wins'],
      a: after['assists'],
    });
    const token = bearer(sandbox.issueToken({ playerName: name }));
    const history = await get(`${sandbox.urls.legacy}/match-history/me?limit=1`, token);
    expect(matchIds(history.text)).toEqual([id]);
    const season = await get(`${sandbox.urls.legacy}/player-profile/me/season/0/region/${region}`, token);
    expect(season.body.data).toMatchObject({ mmr: ranked.mmr, wins: ranked.wins, kills: ranked.kills });
  });

  it('gives later matches higher ids and draws seeded defaults for what is not fixed', async () => {
    const h = await start();
    const name = h.sandbox.world.samples.player;
    const before = await h.profile(name);
    const ids: bigint[] = [];
    for (let i = 0; i < 3; i++) {
      h.clock.ms += 20 * 60_000;
      ids.push(h.sandbox.activity.play(name));
    }
    expect(ids[1]! > ids[0]! && ids[2]! > ids[1]!).toBe(true);
    const list = await h.api(`/api/player/${enc(name)}/matches`);
    expect(matchIds(list.text).slice(0, 3)).toEqual([...ids].reverse());
    const played = rows<{ kills: number; score: number; victory: number }>(list.body.data.matches).slice(
      0,
      3,
    );
    const after = await h.profile(name);
    expect((after['games'] as number) - (before['games'] as number)).toBe(3);
    expect((after['kills'] as number) - (before['kills'] as number)).toBe(
      played.reduce((sum, m) => sum + m.kills, 0),
    );
    expect((after['score'] as number) - (before['score'] as number)).toBe(
      played.reduce((sum, m) => sum + m.score, 0),
    );
    expect((after['wins'] as number) - (before['wins'] as number)).toBe(
      played.filter((m) => m.victory === 1).length,
    );
  });

  it('lists a new region once six placement matches are done, on the profile and the board', async () => {
    const h = await start();
    const name = h.sandbox.world.samples.zeroGamesPlayer;
    const region = 3;
    const results = [1, 1, 0, -1, 1, 0] as const;
    for (const [i, victory] of results.entries()) {
      h.clock.ms += 30 * 60_000;
      h.sandbox.activity.play(name, { region, victory, kills: 10 + i, deaths: 8, mmrChange: 10 });
      const profile = await h.profile(name);
      expect(profile['games']).toBe(i + 1);
      if (i < 5) {
        expect(profile['ranked']).toEqual([]);
        expect(await boardRow(h, region, name)).toBeUndefined();
      }
    }
    const profile = await h.profile(name);
    const ranked = rankedIn(profile, region)!;
    expect(ranked).toMatchObject({ wins: 3, losses: 2, kills: 10 + 11 + 12 + 13 + 14 + 15, deaths: 48 });
    expect(profile).toMatchObject({ wins: 3, losses: 3, kills: 75, deaths: 48 });
    expect((await boardRow(h, region, name))?.['mmr']).toBe(ranked.mmr);
    const list = await h.api(`/api/player/${enc(name)}/matches`);
    expect(rows<{ region: number }>(list.body.data.matches).map((m) => m.region)).toEqual(
      Array(6).fill(region),
    );
  });

  it('fixes other participants and map when asked, and refuses bad options', async () => {
    const h = await start();
    const s = h.sandbox.world.samples;
    const id = h.sandbox.activity.play(s.player, { others: [s.verifiedPlayer, s.kpdPlayer], map: 4 });
    const details = (await h.api(`/api/match/${id}`)).body.data;
    expect(details.map).toBe(4);
    const participants = rows<MatchParticipant>(details.participants);
    const team = (who: string): number => participants.find((p) => p.player_name === who)!.team;
    expect(team(s.verifiedPlayer)).toBe(team(s.player));
    expect(team(s.kpdPlayer)).toBe(team(s.player));

    const count = h.sandbox.world.matches.length;
    expect(() => h.sandbox.activity.play(s.player, { kills: -1 })).toThrow(RangeError);
    expect(() => h.sandbox.activity.play(s.player, { region: 9 })).toThrow(RangeError);
    expect(() => h.sandbox.activity.play(s.player, { others: [s.player] })).toThrow(RangeError);
    expect(h.sandbox.world.matches).toHaveLength(count);
  });
});

describe('activity: levelUp', () => {
  it('raises the level by exactly the levels asked, with the least score that does', async () => {
    const h = await start();
    const s = h.sandbox.world.samples;
    const clanScore = async (): Promise<number> =>
      (await h.api(`/api/clan/${s.clan}`)).body.data.score as number;
    const clanBefore = await clanScore();
    const playerBefore = (await h.profile(s.player))['score'] as number;
    for (const [name, levels] of [
      [s.player, 1],
      [s.rankedPlayer, 4],
      [s.zeroGamesPlayer, 2],
    ] as const) {
      const before = await h.profile(name);
      const reached = h.sandbox.activity.levelUp(name, levels);
      const after = await h.profile(name);
      expect(reached, name).toBe((before['level'] as number) + levels);
      expect(after['level'], name).toBe(reached);
      expect(level((after['score'] as number) - 1), name).toBe(reached - 1);
      expect(after['kills'], name).toBe(before['kills']);
      const game = await get(`${h.sandbox.urls.base}/players/${enc(name)}`);
      expect(JSON.parse(game.body.data.stats as string).s, name).toBe(after['score']);
    }
    const playerAfter = (await h.profile(s.player))['score'] as number;
    expect((await clanScore()) - clanBefore).toBe(playerAfter - playerBefore);
    const once = (await h.profile(s.player))['level'] as number;
    expect(h.sandbox.activity.levelUp(s.player)).toBe(once + 1);
    expect(() => h.sandbox.activity.levelUp(s.player, 0)).toThrow(RangeError);
    expect(() => h.sandbox.activity.levelUp(s.player, 1.5)).toThrow(RangeError);
  });
});

describe('activity: setClan', () => {
  it('moves a player between clans, member lists and clan scores included', async () => {
    const h = await start();
    const s = h.sandbox.world.samples;
    const name = s.player;
    const target = h.sandbox.world.clans.find((c) => c.name !== s.clan && c.name !== s.markdownClan)!.name;
    const clan = async (
      clanName: string,
    ): Promise<{ owner_name: string; member_count: number; score: number }> =>
      (await h.api(`/api/clan/${enc(clanName)}`)).body.data as {
        owner_name: string;
        member_count: number;
        score: number;
      };
    const members = async (clanName: string): Promise<string[]> => {
      const names: string[] = [];
      for (let page = 1; page <= 20; page++) {
        const list = rows<{ player_name: string }>(
          (await h.api(`/api/clan/${enc(clanName)}/members?page=${page}`)).body.data.members,
        );
        if (list.length === 0) break;
        names.push(...list.map((m) => m.player_name));
      }
      return names;
    };
    const score = (await h.profile(name))['score'] as number;
    const [fromBefore, toBefore] = [await clan(s.clan), await clan(target)];
    expect(fromBefore.owner_name).toBe(name);

    h.sandbox.activity.setClan(name, target);
    expect((await h.profile(name))['clan']).toBe(target);
    const [fromAfter, toAfter] = [await clan(s.clan), await clan(target)];
    expect(toAfter.member_count).toBe(toBefore.member_count + 1);
    expect(toAfter.score).toBe(toBefore.score + score);
    expect(await members(target)).toContain(name);
    expect(fromAfter.member_count).toBe(fromBefore.member_count - 1);
    expect(fromAfter.score).toBe(fromBefore.score - score);
    expect(fromAfter.owner_name).not.toBe(name);
    expect(await members(s.clan)).toContain(fromAfter.owner_name);
    expect(await members(s.clan)).not.toContain(name);
    const game = await get(`${h.sandbox.urls.base}/players/${enc(name)}`);
    expect(game.body.data.clan).toBe(target);

    h.sandbox.activity.setClan(name, target);
    expect((await clan(target)).member_count).toBe(toAfter.member_count);
    h.sandbox.activity.setClan(name, '');
    expect((await h.profile(name))['clan']).toBe('');
    expect(await members(target)).not.toContain(name);
    expect(() => h.sandbox.activity.setClan(name, 'NoSuchClanAnywhere')).toThrow(/no clan/);
  });

  it('refuses to take the last member out of a clan', async () => {
    const h = await start();
    const smallest = [...h.sandbox.world.clans].sort((a, b) => a.members.length - b.members.length)[0]!;
    const names = smallest.members.map((m) => m.playerName);
    for (const name of names.slice(1)) h.sandbox.activity.setClan(name, '');
    expect(() => h.sandbox.activity.setClan(names[0]!, '')).toThrow(/last member/);
    expect((await h.api(`/api/clan/${enc(smallest.name)}`)).body.data).toMatchObject({
      member_count: 1,
      owner_name: names[0],
    });
  });
});

describe('activity: names and determinism', () => {
  it('throws for unknown player names and changes nothing', async () => {
    const h = await start();
    const { activity, world } = h.sandbox;
    const count = world.matches.length;
    expect(() => activity.play('NobodyByThisName')).toThrow(/no player/);
    expect(() => activity.play(world.samples.player, { others: ['NobodyByThisName'] })).toThrow(/no player/);
    expect(() => activity.levelUp('NobodyByThisName')).toThrow(/no player/);
    expect(() => activity.setClan('NobodyByThisName', world.samples.clan)).toThrow(/no player/);
    expect(() => activity.play(world.samples.player.toLowerCase())).toThrow(/no player/);
    expect(world.matches).toHaveLength(count);
  });

  it('answers byte-identical bodies from two sandboxes given the same seed and calls', async () => {
    const [a, b, c] = await Promise.all([start({ seed: 9 }), start({ seed: 9 }), start({ seed: 10 })]);
    const script = (h: Harness): bigint[] => {
      const s = h.sandbox.world.samples;
      const target = h.sandbox.world.clans[3]!.name;
      h.clock.ms += HOUR;
      const first = h.sandbox.activity.play(s.player);
      h.sandbox.activity.levelUp(s.verifiedPlayer, 2);
      h.clock.ms += HOUR;
      const second = h.sandbox.activity.play(s.verifiedPlayer, { kills: 7 });
      h.sandbox.activity.setClan(s.player, target);
      return [first, second];
    };
    const bodies = async (h: Harness, ids: bigint[]): Promise<string[]> => {
      const s = h.sandbox.world.samples;
      const paths = [
        `/api/player/${s.player}`,
        `/api/player/${s.verifiedPlayer}`,
        `/api/player/${s.player}/matches`,
        ...ids.map((id) => `/api/match/${id}`),
        `/api/leaderboard/${playerNamed(h.sandbox, s.verifiedPlayer).homeRegion}`,
        `/api/clan/${enc(h.sandbox.world.clans[3]!.name)}/members`,
      ];
      const texts: string[] = [];
      for (const path of paths) {
        const reply = await h.api(path);
        expect(reply.status, path).toBe(200);
        texts.push(reply.text);
      }
      return texts;
    };
    const [idsA, idsB, idsC] = [script(a), script(b), script(c)];
    expect(idsA).toEqual(idsB);
    expect(await bodies(a, idsA)).toEqual(await bodies(b, idsB));
    expect(await bodies(a, idsA)).not.toEqual(await bodies(c, idsC));
  });
});

describe('activity: scheduled players (the everyMs start option)', () => {
  const MINUTE = 60_000;

  it('is off by default: the clock alone changes nothing', async () => {
    const h = await start();
    expect(h.sandbox.activity.scheduled).toEqual([]);
    const before = await h.api(`/api/player/${h.sandbox.world.samples.player}`);
    h.clock.ms += 30 * 24 * HOUR;
    const after = await h.api(`/api/player/${h.sandbox.world.samples.player}`);
    expect(after.text).toBe(before.text);
  });

  it('plays a match per scheduled player every everyMs, worked out when a request arrives', async () => {
    const start0 = FIXED_NOW;
    const h = await start({ activity: { everyMs: 10 * MINUTE, players: 2 } });
    const scheduled = h.sandbox.activity.scheduled;
    expect(scheduled).toHaveLength(2);
    expect(scheduled[0]).toBe(h.sandbox.world.samples.player);
    const games = async (name: string): Promise<number> => (await h.profile(name))['games'] as number;
    const base = await Promise.all(scheduled.map(games));

    h.clock.ms = start0 + 10 * MINUTE - 1;
    expect(await Promise.all(scheduled.map(games))).toEqual(base);
    h.clock.ms = start0 + 10 * MINUTE;
    expect(await Promise.all(scheduled.map(games))).toEqual(base.map((g) => g + 1));
    const list = await h.api(`/api/player/${enc(scheduled[1]!)}/matches`);
    expect(list.body.data.matches[0].date).toBe(iso(start0 + 10 * MINUTE));

    h.clock.ms = start0 + 45 * MINUTE;
    expect(await Promise.all(scheduled.map(games))).toEqual(base.map((g) => g + 4));
    const dates = rows<{ date: string }>(
      (await h.api(`/api/player/${enc(scheduled[0]!)}/matches`)).body.data.matches,
    )
      .slice(0, 4)
      .map((m) => m.date);
    expect(dates).toEqual([40, 30, 20, 10].map((m) => iso(start0 + m * MINUTE)));

    // An explicit play comes after the ticks already due.
    h.clock.ms = start0 + 65 * MINUTE;
    const id = h.sandbox.activity.play(scheduled[1]!);
    const mine = await h.api(`/api/player/${enc(scheduled[1]!)}/matches`);
    expect(matchIds(mine.text)[0]).toBe(id);
    expect(await games(scheduled[1]!)).toBe(base[1]! + 7);
  });

  it('is deterministic however the requests fall, and bounded after a long jump', async () => {
    const options = { seed: 4, activity: { everyMs: 15 * MINUTE, players: 3 } };
    const [stepwise, atOnce] = await Promise.all([start(options), start(options)]);
    const name = stepwise.sandbox.activity.scheduled[2]!;
    for (let minutes = 0; minutes <= 120; minutes += 7) {
      stepwise.clock.ms = FIXED_NOW + minutes * MINUTE;
      await stepwise.api(`/api/player/${enc(name)}`);
    }
    stepwise.clock.ms = FIXED_NOW + 121 * MINUTE;
    atOnce.clock.ms = FIXED_NOW + 121 * MINUTE;
    for (const path of [`/api/player/${enc(name)}`, `/api/player/${enc(name)}/matches`]) {
      expect((await stepwise.api(path)).text).toBe((await atOnce.api(path)).text);
    }

    const before = (await atOnce.profile(name))['games'] as number;
    atOnce.clock.ms += 365 * 24 * HOUR;
    const after = (await atOnce.profile(name))['games'] as number;
    expect(after - before).toBeGreaterThan(0);
    expect(after - before).toBeLessThanOrEqual(200);
  });

  it('refuses a schedule without a positive period or with too many players', async () => {
    await expect(startSandbox({ activity: { everyMs: 0 } })).rejects.toThrow(RangeError);
    await expect(startSandbox({ activity: { everyMs: 1_000, players: 11 } })).rejects.toThrow(RangeError);
  });
});
