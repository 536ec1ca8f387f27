import { PermissionFlagsBits } from 'discord.js';
import type { DemoClock } from './clans.ts';
import { rolesSeen } from './clans.ts';
import { DEMO_CLAN, featuredMapStep, kpdStep, priceDropStep, rosterStep, trackedMatchStep } from './game.ts';
import type { Stack } from './stack.ts';
import { firstSuggestion, type Actor, type Step } from './steps.ts';

/**
 * A server's side of the demo: announcements in a channel, a moderator's KPD key, linked accounts and the
 * roles that follow them, the server's leaderboard, tracked players, price alerts, and a player's own data
 * through an access token.
 */

const samples = (stack: Stack) => stack.sandbox.world.samples;
const manager = true;

const CODE = /KF-[A-Z0-9]{6}/;

/** The code `/link name` gave the demo's user: the newest one its replies in #general carry. */
function linkCode(stack: Stack): string {
  const replies = stack.discord.messages(stack.channelId);
  for (let i = replies.length - 1; i >= 0; i -= 1) {
    const found = CODE.exec(JSON.stringify(replies[i]?.embeds ?? []))?.[0];
    if (found) return found;
  }
  throw new Error('no link code in the replies');
}

/** The server owner, with Manage Roles and Manage Server: who sets the role rules. */
function owner(stack: Stack): Actor {
  const ownerId = stack.bot.client.guilds.cache.get(stack.guildId)?.ownerId;
  return {
    ...(ownerId ? { userId: ownerId } : {}),
    memberPermissions: PermissionFlagsBits.ManageRoles | PermissionFlagsBits.ManageGuild,
  };
}

interface Roles {
  verified?: string;
  veterans?: string;
}

/** Roles of the demo's server: one for verified members and one for veterans, below the bot's. */
async function makeRoles(stack: Stack, roles: Roles): Promise<void> {
  const { discord, guildId } = stack;
  const manage = discord.addRole(guildId, {
    name: 'killfeed-roles',
    permissions: PermissionFlagsBits.ManageRoles,
  });
  const botRoles = discord.memberRoles(guildId, discord.botUserId) ?? [];
  discord.setMemberRoles(guildId, discord.botUserId, [...botRoles, manage.id]);
  roles.verified = discord.addRole(guildId, { name: 'Verified' }).id;
  roles.veterans = discord.addRole(guildId, { name: 'Veterans' }).id;
  await rolesSeen(stack, [manage.id, roles.verified, roles.veterans]);
}

/** Announcements in #general, and the moderator's KPD key. */
function announcementSteps(clock: DemoClock): Step[] {
  return [
    {
      command: 'subscribe',
      sub: 'maps',
      options: (s) => ({ channel: s.channelId }),
      manager,
      note: 'featured maps are announced in #general from now on',
    },
    featuredMapStep(),
    {
      command: 'subscribe',
      sub: 'clan-log',
      options: (s) => ({ channel: s.channelId, clan: DEMO_CLAN, events: 'all', milestone: 10_000 }),
      manager,
      note: `${DEMO_CLAN}'s roster log in #general: joins, leaves, promotions, score milestones, rank`,
    },
    rosterStep(clock),
    {
      command: 'kpd',
      sub: 'link',
      manager,
      modal: (s) => s.sandbox.keys.kpd,
      note: 'a moderator links an API key with the kpd scope, pasted in a form (encrypted at rest)',
    },
    { command: 'kpd', sub: 'calls', manager, note: 'the latest hacker reports (KPD calls), paged' },
    {
      command: 'subscribe',
      sub: 'kpd',
      options: (s) => ({ channel: s.channelId }),
      manager,
      note: 'new KPD calls, and changes of their status and verdict, are posted in #general from now on',
    },
    kpdStep(clock),
    {
      command: 'subscribe',
      sub: 'turf',
      options: (s) => ({ channel: s.channelId }),
      manager,
      note: 'every turf map changing hands, posted in #general',
    },
    { command: 'subscriptions', manager, note: "the server's announcements, each with its id" },
    {
      command: 'unsubscribe',
      options: async (s) => ({ id: await firstSuggestion(s, 'unsubscribe', undefined, 'id', 'kpd') }),
      manager,
      note: 'the KPD one removed: its id picked from autocomplete after typing "kpd"',
    },
  ];
}

/** A linked account, the server's leaderboard, and role rules that follow linked accounts. */
function accountSteps(): Step[] {
  const roles: Roles = {};
  const role = (which: keyof Roles): string => {
    const id = roles[which];
    if (id === undefined) throw new Error('the roles were not made');
    return id;
  };
  const rule = async (s: Stack) => ({ id: await firstSuggestion(s, 'roles', 'remove', 'id') });
  return [
    {
      command: 'link',
      sub: 'name',
      options: (s) => ({ player: samples(s).player }),
      note: 'the user claims a game account: the bot hands out a one-time code to post on its profile',
    },
    { command: 'link', sub: 'status', note: 'the verification under way' },
    {
      command: 'link',
      sub: 'verify',
      before: {
        title: 'the player posts the code on the game profile',
        run: (s) => s.sandbox.posts.add(samples(s).player, `killfeed ${linkCode(s)}`),
      },
      note: 'the bot finds the code in the latest posts: the Discord account is linked',
    },
    {
      command: 'server',
      sub: 'leaderboard',
      note: "this server's linked members ranked by K/D (from their latest snapshots), your row below",
    },
    {
      command: 'roles',
      sub: 'add',
      before: {
        title: 'the server has roles @Verified and @Veterans, and gives the bot Manage Roles',
        run: (s) => makeRoles(s, roles),
      },
      options: () => ({ kind: 'verified', role: role('verified') }),
      as: owner,
      note: 'the server owner: every verified member gets @Verified',
    },
    {
      command: 'roles',
      sub: 'add',
      options: () => ({ kind: 'level', role: role('veterans'), threshold: 20 }),
      as: owner,
      note: 'and @Veterans from level 20',
    },
    { command: 'roles', sub: 'list', as: owner, note: 'the rules' },
    { command: 'roles', sub: 'preview', as: owner, note: 'what a sync would change, changing nothing' },
    { command: 'roles', sub: 'sync', as: owner, note: 'the sync: the linked member gets the roles' },
    {
      command: 'roles',
      sub: 'remove',
      options: rule,
      as: owner,
      note: 'a rule removed (its id picked from autocomplete), and its role taken back',
    },
  ];
}

/** Players followed into #general, and price alerts by DM and in #general. */
function followSteps(clock: DemoClock): Step[] {
  const tracked = (s: Stack) => samples(s).rankedPlayer;
  const skin = (s: Stack) => samples(s).skinIndex;
  return [
    {
      command: 'track',
      sub: 'add',
      options: (s) => ({ player: tracked(s), channel: s.channelId }),
      manager,
      note: 'a player followed into #general: ranked matches, level ups, clan changes',
    },
    trackedMatchStep(clock, (game) => tracked(game.stack)),
    {
      command: 'track',
      sub: 'list',
      manager,
      note: 'the tracked players, with the refresh interval really planned',
    },
    {
      command: 'track',
      sub: 'remove',
      options: async (s) => ({ id: await firstSuggestion(s, 'track', 'remove', 'id') }),
      manager,
      note: 'no longer tracked (its id picked from autocomplete)',
    },
    {
      command: 'alert',
      sub: 'add',
      options: (s) => ({ skin: skin(s), direction: 'below', price: 50 }),
      note: 'a DM when the skin’s lowest price falls to 50 KR or below',
    },
    {
      command: 'alert',
      sub: 'add',
      options: (s) => ({ skin: skin(s), direction: 'below', price: 100, channel: s.channelId }),
      manager,
      note: 'a post in #general when it falls to 100 KR or below (a channel alert needs Manage Server)',
    },
    priceDropStep(clock, skin, 45),
    { command: 'alert', sub: 'list', note: 'your alerts, both fired' },
    {
      command: 'alert',
      sub: 'list',
      options: () => ({ server: true }),
      manager,
      note: 'every alert of the server',
    },
    {
      command: 'alert',
      sub: 'remove',
      options: async (s) => ({ id: await firstSuggestion(s, 'alert', 'remove', 'id') }),
      note: 'one removed (its id picked from autocomplete)',
    },
  ];
}

/** A player's own data through an access token, kept in memory for the next commands, then forgotten. */
function meSteps(): Step[] {
  return [
    {
      command: 'me',
      sub: 'wallet',
      modal: (s) => ({
        secret: s.sandbox.issueToken({ playerName: samples(s).rankedPlayer }),
        remember: 'yes',
      }),
      note: 'the wallet, through the access token pasted in a form; the user chooses to have it kept for 15 minutes',
    },
    {
      command: 'me',
      sub: 'market-history',
      note: 'the token kept: no form; your market sales and purchases',
    },
    { command: 'me', sub: 'listings', note: 'your own market listings' },
    { command: 'me', sub: 'trades', note: 'your trades, which way KR went' },
    { command: 'me', sub: 'ranked', note: 'your ranked profile' },
    { command: 'me', sub: 'matches', note: 'your match history' },
    { command: 'me', sub: 'forget', note: 'the kept token dropped at once' },
  ];
}

/** The server's side of the demo, in order. */
export function serverSteps(clock: DemoClock): Step[] {
  return [
    { kind: 'section', title: 'A server’s announcements, and a moderator’s KPD key (Manage Server)' },
    ...announcementSteps(clock),
    {
      kind: 'section',
      title: 'A linked game account, the server’s leaderboard, and roles that follow links',
    },
    ...accountSteps(),
    { kind: 'section', title: 'Following a player, and price alerts' },
    ...followSteps(clock),
    { kind: 'section', title: 'A player’s own data, through an access token' },
    ...meSteps(),
    { kind: 'section', title: 'Removing the key and the link' },
    { command: 'kpd', sub: 'unlink', manager, note: 'the moderator key removed' },
    { command: 'unlink', note: 'the user unlinks the game account' },
  ];
}
