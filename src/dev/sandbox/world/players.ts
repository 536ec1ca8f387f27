import { NAME_PREFIXES, NAME_SUFFIXES, UNICODE_NAMES } from '../names.ts';
import type { Rng } from '../prng.ts';
import { NOTABLE, type WorldContext } from './common.ts';
import { RANKED_REGIONS, type Player, type PlayerStats } from './types.ts';

function makeNames(rng: Rng, count: number): string[] {
  const names: string[] = [
    NOTABLE.player,
    NOTABLE.verified,
    NOTABLE.hacker,
    NOTABLE.zeroGames,
    ...NOTABLE.unicode,
    NOTABLE.kpd,
    NOTABLE.markdown,
    NOTABLE.mapMaker,
    ...UNICODE_NAMES,
  ];
  const seen = new Set(names.map((name) => name.toLowerCase()));
  while (names.length < count) {
    const prefix = rng.pick(NAME_PREFIXES);
    const suffix = rng.pick(NAME_SUFFIXES);
    const style = rng.int(0, 5);
    const name =
      style === 0
        ? `${prefix}${suffix}`
        : style === 1
          ? `${prefix}_${suffix}`
          : style === 2
            ? `${prefix.toLowerCase()}${suffix}${rng.int(1, 999)}`
            : style === 3
              ? `xX${prefix}${suffix}Xx`
              : style === 4
                ? `${prefix}${suffix}${rng.int(10, 99)}`
                : `${suffix.toUpperCase()}_${prefix.toLowerCase()}`;
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}

function makeStats(rng: Rng, games: number): PlayerStats {
  const kills = games * rng.int(4, 24) + (games > 0 ? rng.int(0, 9) : 0);
  const deaths = games * rng.int(5, 20) + (games > 0 ? rng.int(0, 9) : 0);
  const shots = kills * rng.int(6, 14);
  const headshots = Math.floor(kills * rng.float(0.08, 0.4));
  return {
    score: kills * rng.int(90, 160) + games * rng.int(10, 90),
    kills,
    deaths,
    games,
    wins: Math.floor(games * rng.float(0.25, 0.65)),
    assists: Math.floor(kills * rng.float(0.15, 0.5)),
    melees: Math.floor(kills * rng.float(0, 0.05)),
    beatdowns: Math.floor(kills * rng.float(0, 0.01, 3)),
    bullseyes: Math.floor(kills * rng.float(0, 0.02, 3)),
    headshots,
    legshots: Math.floor(kills * rng.float(0.02, 0.15)),
    wallbangs: Math.floor(kills * rng.float(0, 0.06)),
    shots,
    hits: Math.floor(shots * rng.float(0.15, 0.45)),
    timePlayed: games * rng.int(200, 420),
    nukes: Math.floor(kills / rng.int(400, 2500)),
    airdrops: Math.floor(games / rng.int(5, 30)),
    airdropsStolen: Math.floor(games / rng.int(20, 90)),
    slimes: Math.floor(games / rng.int(30, 120)),
    juggernauts: Math.floor(games / rng.int(40, 200)),
    juggernautsKilled: Math.floor(games / rng.int(30, 150)),
    warmachines: Math.floor(games / rng.int(200, 900)),
  };
}

export interface PlayerDraft {
  id: number;
  name: string;
  clanId: number | null;
  verified: boolean;
  hackerTagged: boolean;
  banned: boolean;
  kpd: boolean;
  premium: boolean;
  rankedPool: boolean;
}

/** Players as drafts first: clans and flags are decided before the records are frozen. */
export function makePlayerDrafts({ rng }: WorldContext, playerCount: number): PlayerDraft[] {
  const names = makeNames(rng, Math.max(playerCount, 40));
  let nextPlayerId = 1_000;
  const drafts: PlayerDraft[] = names.map((name) => {
    nextPlayerId += rng.int(1, 9);
    return {
      id: nextPlayerId,
      name,
      clanId: null,
      verified: rng.chance(0.04),
      hackerTagged: false,
      banned: false,
      kpd: rng.chance(0.02),
      premium: rng.chance(0.15),
      rankedPool: rng.chance(0.6),
    };
  });
  const draftByName = new Map(drafts.map((draft) => [draft.name, draft]));
  const draft = (name: string): PlayerDraft => {
    const found = draftByName.get(name);
    if (!found) throw new Error(`no player ${name}`);
    return found;
  };
  Object.assign(draft(NOTABLE.player), { verified: false, rankedPool: true });
  Object.assign(draft(NOTABLE.verified), { verified: true, premium: true, rankedPool: true });
  Object.assign(draft(NOTABLE.hacker), {
    hackerTagged: true,
    banned: true,
    verified: false,
    rankedPool: false,
  });
  Object.assign(draft(NOTABLE.zeroGames), { verified: false, kpd: false, premium: false, rankedPool: false });
  Object.assign(draft(NOTABLE.kpd), { kpd: true, rankedPool: true });
  for (const extra of rng.sample(drafts.slice(30), 4))
    Object.assign(extra, { hackerTagged: true, banned: true });
  return drafts;
}

export function makePlayers({ rng, daysAgo }: WorldContext, drafts: readonly PlayerDraft[]): Player[] {
  const players: Player[] = drafts.map((d) => {
    const games = d.name === NOTABLE.zeroGames ? 0 : rng.int(20, 4_000);
    const stats = makeStats(rng, games);
    const classStats: Record<string, number> = {};
    if (games > 0) {
      for (const classId of rng
        .sample([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13], rng.int(2, 6))
        .sort((a, b) => a - b)) {
        classStats[String(classId)] = Math.floor(stats.score * rng.float(0.02, 0.4));
      }
    }
    const previousNames =
      rng.chance(0.2) && games > 0
        ? [{ name: `${d.name.slice(0, 6)}Old${rng.int(1, 99)}`, changedAtMs: daysAgo(rng.int(40, 600)) }]
        : [];
    return {
      id: d.id,
      name: d.name,
      clanId: d.clanId,
      verified: d.verified,
      hackerTagged: d.hackerTagged,
      banned: d.banned,
      kpd: d.kpd,
      premium: d.premium,
      flag: rng.int(0, 249),
      badges: rng
        .sample([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20], rng.int(0, 4))
        .sort((a, b) => a - b),
      twitchName:
        d.verified || rng.chance(0.08) ? `${d.name.replace(/[^A-Za-z0-9_]/g, '')}_tv`.toLowerCase() : '',
      createdAtMs: daysAgo(rng.int(30, 2_000)),
      kr: games === 0 ? 0 : rng.int(0, 450_000),
      junk: games === 0 ? 0 : rng.float(400, 3_200),
      homeRegion: rng.pick(RANKED_REGIONS),
      rankedPool: d.rankedPool && games > 0,
      stats,
      classStats,
      follows: [],
      previousNames,
      discordTag: rng.chance(0.3) ? `${d.name.toLowerCase().slice(0, 10)}#${rng.int(1000, 9999)}` : null,
    };
  });
  const zeroGames = players.find((p) => p.name === NOTABLE.zeroGames);
  for (const player of players) {
    if (player === zeroGames) continue;
    const follows = rng
      .sample(players, rng.int(0, 18))
      .filter((other) => other.id !== player.id && other !== zeroGames)
      .map((other) => other.id)
      .sort((a, b) => a - b);
    (player as { follows: readonly number[] }).follows = follows;
  }
  return players;
}
