import { ApplicationCommandOptionType, PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountLinks } from '../../src/players/accounts.ts';
import { startPipeline } from '../../src/worker.ts';
import { discordTarget } from '../../src/announcements/index.ts';
import { ANNOUNCEMENT_KINDS } from '../../src/kinds.ts';
import { kpdSource } from '../../src/features/kpd/feed.ts';
import { SubscriptionRepository } from '../../src/announcements/repositories.ts';
import { KpdKeyRecords } from '../../src/features/kpd/keys.ts';
import type { KpdCall as WorldCall } from '../../src/dev/sandbox/index.ts';
import type { MessageRecord } from '../../src/dev/standin/index.ts';
import { accessTokenMemory } from '../../src/features/tokens/token-memory.ts';
import { makeJwt } from '../support/jwt.ts';
import { MANAGE_GUILD, startHarness, type Harness } from '../support/secrets.ts';

/**
 * The canary: the real bot goes through every path that touches a secret (linking KPD keys good and
 * bad, reading calls, the moderators' KPD feed, verifying an account link, every `/me` reply, refused
 * and expired tokens, a `/me` token remembered in memory, used, paged with, forgotten and dropped) with recognisable secrets; then every log line, every message and interaction
 * answer the stand-in kept, and the raw bytes of the sqlite store are searched for them. None may
 * appear. The KPD calls' internal tokens and game server addresses are held to the same rule.
 */
const EPHEMERAL = 64;
const MOD = '300000000000000001';
const PLAYER_USER = '300000000000000002';
const BYSTANDER = '300000000000000003';
const CAN_POST =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.AttachFiles;

let h: Harness;
const replies: MessageRecord[] = [];

function description(message: MessageRecord): string {
  return message.embeds[0]?.description ?? '';
}

async function keep(message: Promise<MessageRecord>): Promise<MessageRecord> {
  const record = await message;
  replies.push(record);
  return record;
}

function buttonId(message: MessageRecord, label: string): string {
  const rows = message.components as Array<{ components?: Array<{ custom_id?: string; label?: string }> }>;
  const id = rows.flatMap((row) => row.components ?? []).find((button) => button.label === label)?.custom_id;
  if (id === undefined) throw new Error(`no button ${label}`);
  return id;
}

/** Where a secret could leak: a distinctive middle part (beyond any prefix a reply may show) and the whole. */
function fragments(secret: string, shownPrefix = 0): string[] {
  const parts = [secret];
  for (let at = Math.max(shownPrefix, 3); at + 12 <= secret.length; at += 9)
    parts.push(secret.slice(at, at + 12));
  return parts;
}

describe('the canary', () => {
  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);
  afterAll(async () => h.close());

  it(
    'never lets a secret out: logs, Discord messages and the store file stay clean',
    { timeout: 120_000 },
    async () => {
      const { sandbox, standin, guild, otherGuild } = h;
      const player = sandbox.world.samples.rankedPlayer;
      const playerToken = sandbox.issueToken({ playerName: player });
      const expiredToken = sandbox.issueToken({ playerName: player, expiresInSec: 0 });
      // Asked to be remembered: it lives in memory for a while, and must still appear nowhere.
      const keptToken = sandbox.issueToken({ playerName: player, expiresInSec: 7_200 });
      const forgedToken = makeJwt(
        { alg: 'RS256', typ: 'JWT' },
        { sub: player, exp: Math.floor(Date.now() / 1000) + 3600 },
      );
      const mod = { userId: MOD, permissions: MANAGE_GUILD };
      const region = sandbox.world.ranked.find(
        (r) => r.playerName === player && r.season === sandbox.world.currentSeason && r.matches >= 6,
      )!.region;

      // /kpd link: permission, shape, the three kinds of keys.
      const noPermission = await keep(
        h.throughModal('kpd', 'link', sandbox.keys.kpd, {}, { userId: BYSTANDER, permissions: 0n }),
      );
      expect(description(noPermission)).toContain('Manage Server');
      expect(noPermission.flags & EPHEMERAL).toBe(EPHEMERAL);

      const badShape = await keep(h.throughModal('kpd', 'link', 'not a key at all', {}, mod));
      expect(description(badShape)).toContain('start with `kr_`');
      const noScope = await keep(h.throughModal('kpd', 'link', sandbox.keys.default, {}, mod));
      expect(description(noScope)).toMatch(/lacks the `kpd` scope/);
      expect(description(noScope)).toContain('accepted this key');
      const revoked = await keep(h.throughModal('kpd', 'link', sandbox.keys.revoked, {}, mod));
      expect(description(revoked)).toContain('invalid or revoked');
      expect(await new KpdKeyRecords(h.bot.services.db).has(guild.id)).toBe(false);

      const linked = await keep(h.throughModal('kpd', 'link', sandbox.keys.kpd, {}, mod));
      expect(linked.flags & EPHEMERAL).toBe(EPHEMERAL);
      expect(description(linked)).toContain(`\`${sandbox.keys.kpd.slice(0, 7)}…\``);
      expect(description(linked)).toContain('50 recent calls');
      const linkedElsewhere = await keep(
        h.throughModal('kpd', 'link', sandbox.keys.kpd, {}, { ...mod, guildId: otherGuild.id }),
      );
      expect(linkedElsewhere.embeds[0]?.title).toBe('KPD key linked');

      // /kpd calls, and its page buttons.
      const calls = await keep(h.command('kpd', 'calls', {}, mod).final());
      expect(calls.flags & EPHEMERAL).toBe(EPHEMERAL);
      expect(calls.embeds[0]?.fields).toHaveLength(10);
      const next = (calls.components[0] as { components: Array<{ custom_id: string }> }).components[2]!
        .custom_id;
      const page2 = await keep(h.click(calls, next, MOD, MANAGE_GUILD).final());
      expect(page2.embeds[0]?.fields?.[0]?.name).not.toBe(calls.embeds[0]?.fields?.[0]?.name);
      expect(page2.id).toBe(calls.id);

      // /link name, a failed check, the code posted, the check that links; then the default name.
      const started = await keep(h.command('link', 'name', { player }, { userId: PLAYER_USER }).final());
      const code = /KF-[A-Z0-9]{6}/.exec(description(started))?.[0];
      expect(code).toBeDefined();
      const notYet = await keep(h.command('link', 'verify', {}, { userId: PLAYER_USER }).final());
      expect(notYet.embeds[0]?.title).toBe('Code not found yet');
      h.post(player, `linking my discord: ${code}`);
      const verified = await keep(h.command('link', 'verify', {}, { userId: PLAYER_USER }).final());
      expect(verified.embeds[0]?.title).toBe('Account linked');
      expect(await accountLinks(h.bot.services).get(PLAYER_USER)).toMatchObject({ playerName: player });
      const profile = await keep(h.command('player', 'profile', {}, { userId: PLAYER_USER }).final());
      expect(profile.embeds[0]?.title).toBe(player);

      // /me: every subcommand with a working token, then refused tokens.
      const meReplies = [
        await keep(h.throughModal('me', 'wallet', playerToken, {}, { userId: PLAYER_USER })),
        await keep(h.throughModal('me', 'market-history', playerToken, {}, { userId: PLAYER_USER })),
        await keep(h.throughModal('me', 'listings', playerToken, {}, { userId: PLAYER_USER })),
        await keep(h.throughModal('me', 'trades', playerToken, { page: 1 }, { userId: PLAYER_USER })),
        await keep(h.throughModal('me', 'ranked', playerToken, {}, { userId: PLAYER_USER })),
        await keep(h.throughModal('me', 'ranked', playerToken, { region }, { userId: PLAYER_USER })),
        await keep(h.throughModal('me', 'matches', playerToken, { page: 2 }, { userId: PLAYER_USER })),
      ];
      expect(meReplies.map((reply) => reply.embeds[0]?.title)).toEqual([
        'Your wallet',
        'Your market history',
        'Your open listings',
        'Your trades',
        expect.stringMatching(/^Your ranked profile/),
        expect.stringMatching(/^Your ranked profile/),
        'Your match history',
      ]);
      for (const reply of meReplies) expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);

      const bearerCalls = () => sandbox.requests.entries().filter((entry) => entry.bearerPresent).length;
      const before = bearerCalls();
      const expired = await keep(h.throughModal('me', 'wallet', expiredToken, {}, { userId: PLAYER_USER }));
      expect(description(expired)).toContain('has expired');
      const malformed = await keep(
        h.throughModal('me', 'trades', 'definitely-not-a-jwt-token', {}, { userId: PLAYER_USER }),
      );
      expect(description(malformed)).toContain('not an access token');
      expect(bearerCalls()).toBe(before);
      const forged = await keep(h.throughModal('me', 'wallet', forgedToken, {}, { userId: PLAYER_USER }));
      expect(description(forged)).toContain('refused the access token');
      expect(bearerCalls()).toBe(before + 1);

      // /me remembering a token (opt-in): later /me and page buttons use it from memory, the Forget
      // button and /me forget drop it, a refused kept token is dropped; a restart keeps nothing.
      const me = { userId: PLAYER_USER };
      const remember = { remember: 'yes' };
      const memory = accessTokenMemory(h.bot.services);
      const kept = await keep(h.throughModal('me', 'matches', keptToken, { page: 1 }, me, remember));
      expect(kept.content).toContain('kept in memory');
      expect(memory.size).toBe(1);
      // Clicks update the message they sit on (so they are not counted as replies of their own).
      const keptNext = await h.click(kept, buttonId(kept, 'Next ▶'), PLAYER_USER).final();
      expect(keptNext.embeds[0]?.footer?.text).toMatch(/^Page 2/);
      const fromMemory = h.command('me', 'trades', {}, me);
      expect((await fromMemory.response()).type).toBe(5);
      const keptTrades = await keep(fromMemory.final());
      expect(keptTrades.embeds[0]?.title).toBe('Your trades');
      const forgotByButton = await h
        .click(keptTrades, buttonId(keptTrades, 'Forget my token'), PLAYER_USER)
        .final();
      expect(forgotByButton.content).toContain('was forgotten');
      expect(memory.size).toBe(0);
      await keep(h.throughModal('me', 'wallet', keptToken, {}, me, remember));
      const forgotByCommand = await keep(h.command('me', 'forget', {}, me).final());
      expect(forgotByCommand.embeds[0]?.title).toBe('Token forgotten');
      expect(memory.size).toBe(0);
      const optedOut = await keep(h.throughModal('me', 'wallet', keptToken, {}, me, { remember: 'no' }));
      expect(optedOut.content).toBe('');
      expect(memory.size).toBe(0);
      // A forged token the game refuses is never kept, even when asked to.
      const forgedKept = await keep(h.throughModal('me', 'wallet', forgedToken, {}, me, remember));
      expect(description(forgedKept)).toContain('refused the access token');
      expect(memory.size).toBe(0);
      // Kept at the restart: the stopping process drops it.
      await keep(h.throughModal('me', 'ranked', keptToken, {}, me, remember));
      expect(memory.size).toBe(1);

      // /subscribe kpd: the feed polls with the guild's key and posts a new call; then the key goes away.
      const channelId = standin.addChannel(guild.id, { name: 'kpd-feed' }).id;
      standin.setBotPermissions(guild.id, channelId, CAN_POST);
      const { client, services } = h.bot;
      const announcements = await startPipeline({
        discord: discordTarget(client),
        services,
        config: services.config,
        kinds: ANNOUNCEMENT_KINDS,
        sources: [kpdSource(services)],
        options: { autoStart: false, delivery: { backoffMs: 5, claimTtlMs: 200 } },
      });
      const subscribed = await keep(
        standin
          .invokeCommand({
            name: 'subscribe',
            guildId: guild.id,
            user: { id: MOD },
            memberPermissions: MANAGE_GUILD,
            options: [
              {
                name: 'kpd',
                type: ApplicationCommandOptionType.Subcommand,
                options: [{ name: 'channel', type: ApplicationCommandOptionType.Channel, value: channelId }],
              },
            ],
          })
          .final(),
      );
      expect(subscribed.embeds[0]?.title).toBe('Subscribed');
      await announcements.pollOnce();
      const worldCalls = sandbox.world.kpdCalls as WorldCall[];
      worldCalls.unshift({ ...worldCalls[0]!, id: worldCalls[0]!.id + 500, date: new Date().toISOString() });
      await announcements.pollOnce();
      expect(standin.messages(channelId).map((m) => m.embeds[0]?.title)).toEqual(['New KPD call']);

      // /unlink, /kpd unlink (the other guild keeps its key, so the store still holds one sealed key).
      const unlinked = await keep(h.command('unlink', undefined, {}, { userId: PLAYER_USER }).final());
      expect(description(unlinked)).toContain(player);
      const kpdUnlinked = await keep(h.command('kpd', 'unlink', {}, mod).final());
      expect(description(kpdUnlinked)).toContain('was deleted');
      const notLinked = await keep(h.command('kpd', 'calls', {}, mod).final());
      expect(description(notLinked)).toContain('no linked KPD key');
      await announcements.pollOnce();
      const [subscription] = await new SubscriptionRepository(services.db).forGuild(guild.id);
      expect(subscription?.state).toMatchObject({ status: 'disabled', reason: 'kpdKey' });
      await announcements.stop();

      await h.stop();
      expect(memory.size).toBe(0);

      const secrets: Record<string, string[]> = {
        'Discord bot token': fragments(h.discordToken),
        'default API key': fragments(sandbox.keys.default, 7),
        'linked KPD key': fragments(sandbox.keys.kpd, 7),
        'revoked API key': fragments(sandbox.keys.revoked, 7),
        'player token': fragments(playerToken.split('.').slice(1).join('.')),
        'expired player token': fragments(expiredToken.split('.').slice(1).join('.')),
        'forged player token': fragments(forgedToken.split('.').slice(1).join('.')),
        'kept player token': fragments(keptToken.split('.').slice(1).join('.')),
        'SECRET_KEY (base64)': fragments(h.secretKey!.toString('base64')),
        'SECRET_KEY (hex)': fragments(h.secretKey!.toString('hex')),
      };
      const everything = standin.messages();
      expect(everything.length).toBeGreaterThanOrEqual(replies.length - 1);
      const places: Record<string, string> = {
        'log lines': h.logs(),
        'Discord messages': JSON.stringify(
          everything.map((m) => ({
            ...m,
            attachments: m.attachments.map((a) => a.bytes.toString('latin1')),
          })),
        ),
        'Discord requests': JSON.stringify(standin.requests()),
        'interaction callbacks': JSON.stringify(await h.callbacks()),
        'sqlite store': h.storeBytes().toString('latin1'),
      };
      expect(places['log lines']!.length).toBeGreaterThan(1000);
      expect(places['sqlite store']).toContain('kpd_keys');
      const leaks: string[] = [];
      for (const [place, text] of Object.entries(places)) {
        for (const [name, parts] of Object.entries(secrets)) {
          if (parts.some((part) => text.includes(part))) leaks.push(`${name} in ${place}`);
        }
      }
      expect(leaks).toEqual([]);
      expect(h.logs()).not.toMatch(/"level":(50|60)/);
    },
  );
});

describe('Discord failing an interaction edit', () => {
  let f: Harness;
  beforeAll(async () => {
    f = await startHarness({ appLogger: true });
  }, 60_000);
  afterAll(async () => f.close());

  it('leaves the interaction token out of every log line', { timeout: 60_000 }, async () => {
    const { sandbox, standin } = f;
    // Every attempt (discord.js retries a 5xx three times) of the edit, then of the error follow-up.
    const attempts = 4;
    standin.failNext(
      { method: 'PATCH', path: /^\/webhooks\/\d+\/[^/]+\/messages\/@original$/ },
      500,
      attempts,
    );
    standin.failNext({ method: 'POST', path: /^\/webhooks\/\d+\/[^/]+$/ }, 500, attempts);
    const player = sandbox.world.samples.rankedPlayer;
    const pending = f.command('player', 'profile', { name: player }, { userId: PLAYER_USER });
    expect((await pending.response()).type).toBe(5);
    // Stopping waits for the interaction in flight, so its failure has been logged.
    await f.stop();

    const failed = standin
      .requests()
      .filter((r) => r.path.startsWith(`/webhooks/${standin.applicationId}/`) && r.status === 500);
    expect(failed.map((r) => r.method)).toEqual([
      ...Array<string>(attempts).fill('PATCH'),
      ...Array<string>(attempts).fill('POST'),
    ]);
    const logs = f.logs();
    expect(logs).toContain('interaction failed');
    expect(logs).toContain('could not send the error reply');
    const app = standin.applicationId;
    expect(logs).toMatch(new RegExp(`"url":"[^"]*/webhooks/${app}/\\[redacted\\]/messages/(@|%40)original"`));
    expect(logs).toContain(`/webhooks/${app}/[redacted]?wait=true`);
    const leaked = fragments(pending.token).filter((part) => logs.includes(part));
    expect(leaked).toEqual([]);
  });
});
