import { ApplicationCommandOptionType, PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KpdCall } from '../../../src/api/schemas/index.ts';
import { startPipeline } from '../../../src/worker.ts';
import { discordTarget, type Announcements } from '../../../src/announcements/index.ts';
import { ANNOUNCEMENT_KINDS } from '../../../src/kinds.ts';
import { kpdSource } from '../../../src/features/kpd/feed.ts';
import { SubscriptionRepository } from '../../../src/announcements/repositories.ts';
import { diffCalls, KPD_CALL_CHANGE, KPD_NEW_CALL } from '../../../src/features/kpd/events.ts';
import type { KpdCall as WorldCall } from '../../../src/dev/sandbox/index.ts';
import type { MessageRecord } from '../../../src/dev/standin/index.ts';
import { MANAGE_GUILD, startHarness, type Harness } from '../../support/secrets.ts';

/** `/subscribe kpd`: new calls and changes posted to a moderators' channel, with the guild's own key. */
const MOD = '340000000000000001';
const mod = { userId: MOD, permissions: MANAGE_GUILD };
const CAN_POST =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.AttachFiles;

let h: Harness;
let announcements: Announcements;
let channelId: string;

beforeAll(async () => {
  h = await startHarness();
  channelId = h.standin.addChannel(h.guild.id, { name: 'kpd-calls' }).id;
  h.standin.setBotPermissions(h.guild.id, channelId, CAN_POST);
  const { client, services } = h.bot;
  announcements = await startPipeline({
    discord: discordTarget(client),
    services,
    config: services.config,
    kinds: ANNOUNCEMENT_KINDS,
    sources: [kpdSource(services)],
    options: { autoStart: false, delivery: { backoffMs: 5, claimTtlMs: 200 } },
  });
}, 60_000);

afterAll(async () => {
  await announcements.stop();
  await h.close();
});

function subscribe(guildId = h.guild.id) {
  return h.standin
    .invokeCommand({
      name: 'subscribe',
      guildId,
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
    .final();
}

const posted = (): MessageRecord[] => h.standin.messages(channelId);
const worldCalls = () => h.sandbox.world.kpdCalls as WorldCall[];

describe('/subscribe kpd', () => {
  it('is refused while the guild has no linked key', async () => {
    const reply = await subscribe();
    expect(reply.embeds[0]?.description).toContain('no linked KPD key');
  });

  it('posts new calls and status or verdict changes, and nothing on the first poll', async () => {
    await h.throughModal('kpd', 'link', h.sandbox.keys.kpd, {}, mod);
    const reply = await subscribe();
    expect(reply.embeds[0]?.title).toBe('Subscribed');
    expect(JSON.stringify(reply.embeds)).toContain('new KPD calls');

    await announcements.pollOnce();
    expect(posted()).toEqual([]);

    const calls = worldCalls();
    const now = new Date().toISOString();
    const pendingIndex = calls.findIndex((call) => call.status === 1);
    const pending = calls[pendingIndex]!;
    calls[pendingIndex] = {
      ...pending,
      status: 3,
      status_label: 'reviewed',
      rating: 1,
      rating_label: 'banned',
      status_date: now,
    };
    const fresh: WorldCall = {
      ...calls[0]!,
      id: calls[0]!.id + 1000,
      date: now,
      caller_name: '**@everyone** <@123>',
      status: 1,
      rating: 0,
      officer_id: 0,
      officer_name: '',
    };
    calls.unshift(fresh);

    await announcements.pollOnce();
    const messages = posted();
    expect(messages.map((m) => m.embeds[0]?.title).sort()).toEqual(
      [`KPD call #${pending.id} changed`, 'New KPD call'].sort(),
    );
    const change = messages.find((m) => m.embeds[0]?.title?.includes('changed'))!;
    expect(change.embeds[0]?.description).toBe('Status: Not responded → Reviewed\nVerdict: Pending → Banned');
    const created = messages.find((m) => m.embeds[0]?.title === 'New KPD call')!;
    expect(created.embeds[0]?.fields?.[0]?.name).toContain(`#${fresh.id}`);
    const shown = JSON.stringify(messages.map((m) => m.embeds));
    expect(shown).not.toMatch(/@everyone/);
    for (const call of [fresh, pending]) {
      expect(shown).not.toContain(call.token);
      expect(shown).not.toContain(call.host);
    }
    for (const message of messages) expect(message.flags & 64).toBe(0);

    await announcements.pollOnce();
    expect(posted()).toHaveLength(2);
  });

  it('disables the subscription, with the reason, when the key stops working', async () => {
    await h.command('kpd', 'unlink', {}, mod).final();
    await announcements.pollOnce();
    const [subscription] = await new SubscriptionRepository(h.bot.services.db).forGuild(h.guild.id);
    expect(subscription?.state).toMatchObject({ status: 'disabled', reason: 'kpdKey' });
    const list = await h.command('subscriptions', undefined, {}, mod).final();
    expect(JSON.stringify(list.embeds)).toContain('KPD key stopped working');
  });
});

describe('diffCalls', () => {
  const call = (id: number, status: number, rating: number, extra: Partial<KpdCall> = {}): KpdCall => ({
    id,
    status,
    rating,
    date: '2026-11-21T10:00:00Z',
    status_date: '2026-11-21T11:00:00Z',
    host: 'eu-1.gameservers.example',
    port: '31000',
    token: 'f'.repeat(32),
    ...extra,
  });

  it('reports unseen calls and changed ones, dated when they happened, without server or token', () => {
    const events = diffCalls(
      'g',
      { '1': [1, 0], '2': [2, 0] },
      [call(1, 1, 0), call(2, 3, 2), call(3, 1, 0)],
      0,
    );
    expect(events.map((e) => [e.key, e.type, e.at])).toEqual([
      ['kpd:g:3:new', KPD_NEW_CALL, Date.parse('2026-11-21T10:00:00Z')],
      ['kpd:g:2:3:2', KPD_CALL_CHANGE, Date.parse('2026-11-21T11:00:00Z')],
    ]);
    expect(events[1]?.data).toMatchObject({ guildId: 'g', previous: { status: 2, rating: 0 } });
    const stored = JSON.stringify(events);
    expect(stored).not.toContain('gameservers');
    expect(stored).not.toContain('31000');
    expect(stored).not.toContain('f'.repeat(32));
  });

  it('falls back to the poll time for a call without a readable date', () => {
    const [event] = diffCalls('g', {}, [call(9, 1, 0, { date: 'yesterday' })], 1234);
    expect(event?.at).toBe(1234);
  });
});
