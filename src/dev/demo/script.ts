import type { DemoClock } from './clans.ts';
import { clanSteps } from './clans.ts';
import { serverSteps } from './script-server.ts';
import type { Stack } from './stack.ts';
import type { Step } from './steps.ts';

/**
 * The demo's session, top to bottom: a player's commands first (profiles, clans, maps, mods, the market,
 * matches, leaderboards, turf wars, lobbies, names the game does not know), then a server's (announcements,
 * a moderator key, linked accounts and roles, tracking, price alerts, a player's own data), and last the
 * clan channel, whose steps move the clock to the end of the UTC turf day.
 */

const samples = (stack: Stack) => stack.sandbox.world.samples;

const DAY_MS = 86_400_000;
/** Yesterday's date (UTC), as a user types the `day` option. */
const yesterday = () => new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);

/** The clan that earned most from turf this season, from the sandbox's own board. */
async function topEarner(stack: Stack): Promise<string> {
  const reply = await fetch(`${stack.sandbox.urls.base}/territorial-wars/leaderboards/top-grossing-clans`);
  const body = (await reply.json()) as { data: { rows: Array<{ clan_name: string }> } };
  return body.data.rows[0]?.clan_name ?? samples(stack).clan;
}

/** A player on the time board of the demo's map (for `/map rank`). */
function onTimeBoard(stack: Stack): string {
  const map = stack.sandbox.world.maps.find((m) => m.name === samples(stack).timeBoardMap);
  return map?.boards.time?.[0]?.playerName ?? samples(stack).player;
}

/** `name` with its last letter left off: a typo. */
const typo = (name: string) => name.slice(0, -1);

const PLAYER_STEPS: readonly Step[] = [
  {
    command: 'player',
    sub: 'profile',
    options: (s) => ({ name: samples(s).player }),
    then: { pick: 'ranked' },
    note: 'a profile with its card, then its ranked section picked from the menu',
  },
  {
    command: 'player',
    sub: 'matches',
    options: (s) => ({ name: samples(s).rankedPlayer }),
    then: { click: 'Next' },
    note: "a player's ranked matches, each with a button that opens it; then the next page",
  },
  {
    command: 'player',
    sub: 'inventory',
    options: (s) => ({ name: samples(s).player }),
    note: 'every skin the player owns, with its rarity and value',
  },
  {
    command: 'player',
    sub: 'listings',
    options: (s) => ({ name: samples(s).player }),
    note: "the player's market listings",
  },
  {
    command: 'player',
    sub: 'posts',
    options: (s) => ({ name: samples(s).player }),
    note: "the posts on the player's profile",
  },
  {
    command: 'player',
    sub: 'history',
    options: (s) => ({ name: samples(s).player }),
    note: "the player's K/D over time, from the points the bot has kept of the player (a new install has few)",
  },
  {
    command: 'player',
    sub: 'compare',
    options: (s) => ({ a: samples(s).player, b: samples(s).rankedPlayer }),
    note: 'two players stat by stat, the better value marked',
  },
  {
    command: 'player',
    sub: 'profile',
    options: (s) => ({ name: samples(s).player }),
    locale: 'de',
    note: 'the same profile for a user whose Discord speaks German: words, numbers and dates in German',
  },
  {
    command: 'player',
    sub: 'profile',
    options: (s) => ({ name: typo(samples(s).player) }),
    expect: 'did-you-mean',
    note: 'a name with a typo: not found, with "did you mean" buttons for close names; the demo clicks the first',
  },
];

const GAME_STEPS: readonly Step[] = [
  {
    command: 'clan',
    sub: 'profile',
    options: (s) => ({ name: samples(s).clan }),
    note: "a clan's profile, with its message of the day and how it splits turf earnings",
  },
  {
    command: 'clan',
    sub: 'members',
    options: (s) => ({ name: samples(s).clan }),
    note: "the clan's members, paged",
  },
  {
    command: 'map',
    sub: 'info',
    options: (s) => ({ name: samples(s).timeBoardMap }),
    note: "a map's details",
  },
  {
    command: 'map',
    sub: 'leaderboard',
    options: (s) => ({ name: samples(s).timeBoardMap }),
    note: "the map's leaderboard (a time board: lower is better)",
  },
  {
    command: 'map',
    sub: 'rank',
    options: (s) => ({ name: samples(s).timeBoardMap, player: onTimeBoard(s) }),
    note: "one player's place on that map's leaderboard",
  },
  { command: 'map', sub: 'featured', note: 'the maps the game features now' },
  { command: 'mods', sub: 'list', then: { click: 'Next' }, note: 'mods by votes, 10 a page; then page 2' },
  { command: 'mods', sub: 'info', options: (s) => ({ name: samples(s).mod }), note: 'one mod' },
  {
    command: 'market',
    sub: 'skin',
    options: (s) => ({ skin: samples(s).skinIndex, days: 60 }),
    note: "a skin's market: listings, owners and a price-history chart (a slow read upstream: deferred first)",
  },
  {
    command: 'market',
    sub: 'overview',
    note: "the market's own statistics: the most listed skins and their sales of the last days, with a chart",
  },
  {
    command: 'match',
    options: (s) => ({ id: samples(s).matchId }),
    note: 'a ranked match, team by team (its id is above 2^53: kept as a string)',
  },
  {
    command: 'leaderboard',
    sub: 'ranked',
    options: () => ({ region: 3 }),
    then: { click: 'Next' },
    note: "a region's ranked leaderboard; then page 2",
  },
  {
    command: 'leaderboard',
    sub: 'players',
    options: () => ({ board: 'kills' }),
    note: "the game's own board of players, here by kills",
  },
  { command: 'leaderboard', sub: 'clans', note: "the game's clan board" },
  { command: 'leaderboard', sub: 'raids', options: () => ({ map: 31 }), note: "a raid map's board" },
  {
    command: 'leaderboard',
    sub: 'cup',
    options: () => ({ board: 'teams' }),
    note: "the cup's board of teams",
  },
];

/** The turf-war centre and the clan page. */
const TURF_STEPS: readonly Step[] = [
  { command: 'turf', sub: 'status', note: 'the turf maps, who holds each, and today’s top clans on it' },
  {
    command: 'turf',
    sub: 'clan',
    options: (s) => ({ name: samples(s).clan }),
    note: "a clan's turf day: its standing, earnings, and who played on each map today (points, kills, deaths)",
  },
  {
    command: 'turf',
    sub: 'player',
    options: (s) => ({ name: samples(s).player }),
    note: "a player's turf contributions and earnings",
  },
  {
    command: 'turf',
    sub: 'leaderboard',
    options: () => ({ board: 'clans' }),
    then: { click: 'Next' },
    note: "today's top turf clans by points, 25 a page (the standings grow through the UTC day); then page 2",
  },
  {
    command: 'turf',
    sub: 'leaderboard',
    options: () => ({ board: 'clans', day: yesterday(), map: 2 }),
    note: "yesterday's board on one map: the day is a date, the map a name",
  },
  {
    command: 'turf',
    sub: 'leaderboard',
    options: () => ({ board: 'players' }),
    note: "the season's top turf players (a slow board upstream: the reply is deferred first)",
  },
  {
    command: 'turf',
    sub: 'leaderboard',
    options: () => ({ board: 'grossing', day: yesterday() }),
    note: 'the clans that earned most this season; a day does not apply to it, and the reply says so',
  },
  {
    command: 'turf',
    sub: 'payouts',
    options: async (s) => ({ clan: await topEarner(s) }),
    note: "who in the clan was paid what over the season's finished days",
  },
  {
    command: 'turf',
    sub: 'payouts',
    options: async (s) => ({ clan: await topEarner(s), day: yesterday() }),
    note: 'the same clan, one day: who was paid what for yesterday',
  },
  {
    command: 'turf',
    sub: 'clan',
    options: (s) => ({ name: typo(samples(s).clan) }),
    expect: 'did-you-mean',
    note: 'a clan name with a typo: not found, with "did you mean" buttons; the demo clicks the first',
  },
  {
    command: 'clan',
    sub: 'recruitment',
    then: { click: (s) => s.sandbox.world.clans.find((c) => c.recruiting)?.name ?? 'Next' },
    note: "the recruitment board; each clan's button opens its profile (with a way back)",
  },
  {
    command: 'clan',
    sub: 'profile',
    options: () => ({ name: '*_~|Ghosts|~_*' }),
    note: 'a clan whose name, message of the day and split mode are full of markup: all shown as typed',
  },
  { command: 'lobbies', note: 'the public lobbies the matchmaker lists, each with its join link' },
  {
    command: 'player',
    sub: 'profile',
    options: () => ({ name: 'nobody-by-this-name' }),
    expect: 'not-found',
    note: 'a name nobody has and nothing close to: "not found", and what to do',
  },
];

/** Every step of the demo, in order, on the demo's clock. */
export function demoScript(clock: DemoClock): Step[] {
  return [
    {
      kind: 'section',
      title: 'A player looks things up: players, clans, maps, mods, the market, leaderboards',
    },
    ...PLAYER_STEPS,
    ...GAME_STEPS,
    { kind: 'section', title: 'Turf wars, clans recruiting, lobbies, and a name nobody has' },
    ...TURF_STEPS,
    ...serverSteps(clock),
    { kind: 'section', title: 'A clan’s own channel: the turf day’s reminder and digest' },
    // Last: they move the clock forward to the end of the UTC turf day.
    ...clanSteps(clock),
  ];
}
