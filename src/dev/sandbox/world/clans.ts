import { CLAN_NAMES, MARKDOWN_CLAN } from '../names.ts';
import { NOTABLE, at, type WorldContext } from './common.ts';
import type { PlayerDraft } from './players.ts';
import { RANKED_REGIONS, type Clan, type ClanMember, type Player } from './types.ts';

const clanNames = [...CLAN_NAMES, MARKDOWN_CLAN];
const clanIds = clanNames.map((_, index) => 101 + index * 3);
const vortexId = at(clanIds, 0);
const markdownId = at(clanIds, clanNames.length - 1);

/** Every clan gets two members first so none is empty, then most players join one. */
export function assignClans({ rng }: WorldContext, drafts: readonly PlayerDraft[]): void {
  const draftByName = new Map(drafts.map((draft) => [draft.name, draft]));
  const draft = (name: string): PlayerDraft => {
    const found = draftByName.get(name);
    if (!found) throw new Error(`no player ${name}`);
    return found;
  };
  const unicodeClanId = at(clanIds, clanNames.indexOf('Кланище'));
  const fixedClans = new Map<string, number | null>([
    [NOTABLE.player, vortexId],
    [NOTABLE.verified, at(clanIds, 1)],
    [NOTABLE.hacker, at(clanIds, 4)],
    [NOTABLE.zeroGames, null],
    [at(NOTABLE.unicode, 0), unicodeClanId],
    [NOTABLE.kpd, at(clanIds, 2)],
    [NOTABLE.markdown, markdownId],
    [NOTABLE.mapMaker, null],
  ]);
  const pool = rng.shuffle(drafts.filter((d) => !fixedClans.has(d.name)));
  let cursor = 0;
  for (const clanId of clanIds) {
    for (let i = 0; i < 2; i++) at(pool, cursor++).clanId = clanId;
  }
  for (; cursor < pool.length; cursor++) {
    if (rng.chance(0.72)) at(pool, cursor).clanId = rng.pick(clanIds);
  }
  for (const [name, clanId] of fixedClans) draft(name).clanId = clanId;
}

export function makeClans(
  { rng, daysAgo }: WorldContext,
  players: readonly Player[],
  named: (name: string) => Player,
): Clan[] {
  return clanNames.map((name, index) => {
    const id = at(clanIds, index);
    const memberPlayers = players.filter((p) => p.clanId === id);
    const ownerName =
      id === vortexId ? NOTABLE.player : id === markdownId ? NOTABLE.markdown : at(memberPlayers, 0).name;
    const members: ClanMember[] = memberPlayers.map((p) => ({
      playerId: p.id,
      playerName: p.name,
      role: p.name === ownerName ? 3 : rng.chance(0.15) ? 2 : rng.chance(0.3) ? 1 : 0,
    }));
    return {
      id,
      name,
      ownerId: named(ownerName).id,
      ownerName,
      createdAtMs: daysAgo(rng.int(60, 1_500)),
      discord:
        index % 4 === 3
          ? ''
          : rng.token(rng.int(7, 10), 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'),
      region: rng.pick(RANKED_REGIONS),
      language: rng.pick(['en', 'en', 'de', 'fr', 'es', 'pt', 'ru', 'tr', 'pl']),
      recruiting: rng.chance(0.6),
      motd: rng.chance(0.8)
        ? `${rng.pick(['Scrims', 'Turf', 'Ranked push', 'Clan war'])} at ${rng.int(16, 22)}:00 UTC`
        : '',
      members,
    };
  });
}
