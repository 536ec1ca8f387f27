import type {
  GameClan,
  TurfClanEarnings,
  TurfClanPayouts,
  TurfClanPlayers,
  TurfTopPerformingClans,
} from '../../../api/schemas/index.ts';
import { NotFoundError } from '../../../api/errors.ts';
import {
  DIGEST_IDLE_NAMES,
  DIGEST_TOP,
  DigestSchema,
  NAME_MAX,
  type Contributor,
  type Digest,
  type Payout,
} from './model.ts';
import type { TurfReads } from './reads.ts';

/**
 * A clan's turf day from the game's replies: the day's board (its place and points), its earnings, its
 * players' points and its payouts, and (when asked) its roster. Every number is range-checked before it is
 * added or sorted: one that is out of range reads as unknown and costs its line, not the digest; every
 * list is cut to what the post shows.
 */
const MAX = 1e12;

/** A number from upstream the digest may compute with: finite, 0..1e12; undefined otherwise. */
export function amount(value: number | undefined | null): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX
    ? value
    : undefined;
}

function wholeCount(value: number | undefined | null): number | undefined {
  const checked = amount(value);
  return checked !== undefined && Number.isInteger(checked) ? checked : undefined;
}

function nameOf(value: string | undefined, fallback: string): string {
  const trimmed = value?.trim() ?? '';
  return (trimmed === '' ? fallback : trimmed).slice(0, NAME_MAX);
}

/** Points first (unknown last), then name: the order of every list of the digest. */
function byPoints(
  a: { readonly name: string; readonly points?: number | undefined },
  b: { readonly name: string; readonly points?: number | undefined },
): number {
  return (b.points ?? -1) - (a.points ?? -1) || a.name.localeCompare(b.name);
}

export interface DigestReplies {
  readonly clanId: number;
  readonly clanName: string;
  readonly day: number;
  /** The day's board of every map (100 rows), shared by every clan of the poll. */
  readonly board: TurfTopPerformingClans | undefined;
  readonly earnings: TurfClanEarnings | undefined;
  readonly players: TurfClanPlayers;
  readonly payouts: TurfClanPayouts | undefined;
  /** The roster, when some channel wants the members who played nothing. */
  readonly roster?: GameClan | undefined;
}

function contributorsOf(players: TurfClanPlayers): Contributor[] {
  return players.players.map((player) => ({
    name: nameOf(player.player_name, `#${player.player_id}`),
    ...optional('points', amount(player.points)),
    ...optional('kills', wholeCount(player.kills)),
    ...optional('deaths', wholeCount(player.deaths)),
  }));
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

function payoutsOf(payouts: TurfClanPayouts | undefined): { list: Payout[]; total: number } {
  const list: Payout[] = (payouts?.payouts ?? []).map((payout) => ({
    name: nameOf(payout.player_name, `#${payout.player_id}`),
    ...optional('kr', amount(payout.kr)),
  }));
  const total = list.reduce((sum, payout) => sum + (payout.kr ?? 0), 0);
  return { list, total: Math.min(total, MAX) };
}

/** Roster names that scored nothing on the day (names are exact in the game; the roster has no ids). */
function idleOf(roster: GameClan, played: ReadonlySet<string>): NonNullable<Digest['idle']> {
  const names = (roster.members ?? []).map((member) => member.n.trim()).filter((n) => n !== '');
  const idle = [...new Set(names)].filter((n) => !played.has(n)).sort((a, b) => a.localeCompare(b));
  return {
    names: idle.slice(0, DIGEST_IDLE_NAMES).map((n) => n.slice(0, NAME_MAX)),
    count: idle.length,
    roster: names.length,
  };
}

/** The digest of one clan's day, bounded and checked (it is stored as the inbox event's data). */
export function digestOf(replies: DigestReplies): Digest {
  const contributors = contributorsOf(replies.players).filter((c) => (c.points ?? 1) > 0);
  contributors.sort(byPoints);
  const summed = contributors.reduce((sum, c) => sum + (c.points ?? 0), 0);
  const row = replies.board?.rows.find((r) => r.clan_id === replies.clanId);
  const place = wholeCount(row?.position);
  // Not among the board's rows: null ("outside the top 100"); a row whose place is garbage: unknown.
  const position =
    row === undefined ? null : place !== undefined && place >= 1 && place <= 1e6 ? place : undefined;
  const points = amount(row?.points) ?? (contributors.length > 0 ? Math.min(summed, MAX) : undefined);
  const kr = amount(replies.earnings?.days.find((entry) => entry.day === replies.day)?.kr);
  const { list: payouts, total } = payoutsOf(replies.payouts);
  payouts.sort((a, b) => (b.kr ?? -1) - (a.kr ?? -1) || a.name.localeCompare(b.name));
  const played = new Set(contributors.map((c) => c.name));
  return DigestSchema.parse({
    clanId: replies.clanId,
    clanName: nameOf(replies.clanName, `#${replies.clanId}`),
    day: replies.day,
    ...(replies.board === undefined || position === undefined ? {} : { position }),
    ...optional('points', points),
    ...optional('kr', kr),
    contributors: contributors.slice(0, DIGEST_TOP),
    played: contributors.length,
    payouts: payouts.slice(0, DIGEST_TOP),
    paid: payouts.length,
    paidKr: total,
    ...(replies.roster === undefined ? {} : { idle: idleOf(replies.roster, played) }),
  });
}

/**
 * Reads a clan's day and makes its digest. A read that fails (a 5xx, a timeout) fails the digest, and the
 * next poll tries again (within the day, see `source.ts`); one the game answers 404 costs its own line
 * (the board, earnings, payouts, or the roster: no list of members who played nothing), except the day's
 * players, without which there is no digest.
 */
export async function readDigest(
  reads: TurfReads,
  clan: { readonly clanId: number; readonly clanName: string },
  day: number,
  wantIdle: boolean,
): Promise<Digest> {
  const { clanId } = clan;
  const optionalRead = <T>(read: Promise<T>): Promise<T | undefined> =>
    read.catch((error: unknown) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
  const [board, earnings, players, payouts, roster] = await Promise.all([
    optionalRead(reads.call('turfTopPerformingClans', { day })),
    optionalRead(reads.call('turfClanEarnings', { clanId })),
    reads.call('turfClanPlayers', { clanId, day }),
    optionalRead(reads.call('turfClanPayouts', { clanId, day })),
    wantIdle ? optionalRead(reads.call('clanProfile', { clanId })) : Promise.resolve(undefined),
  ]);
  return digestOf({ ...clan, day, board, earnings, players, payouts, roster });
}
