import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { kpdSource } from '../../../src/features/kpd/feed.ts';
import { playersSource } from '../../../src/features/tracking/feed.ts';
import type { Services } from '../../../src/services.ts';
import { text } from '../../../src/render/common.ts';
import type { StepHook } from '../../../src/announcements/delivery.ts';
import {
  drive,
  invoke,
  posted,
  useWorldPerTest,
  type ProcessOptions,
  routeCommands,
} from '../../support/announcements.ts';
import { command as trackCommand } from '../../../commands/track.ts';
import { AlertRepository } from '../../../src/features/alerts/store.ts';
import { followCapacity } from '../../../src/traffic/capacity.ts';
import { backgroundPlan } from '../../../src/players/follow-plan.ts';
import { demandReader } from '../../../src/demand.ts';

/**
 * `/track` end to end: the stand-in for Discord, the sandbox for the game (whose players play ranked
 * matches when the test says so), the players feed polled by hand on a manual clock.
 */
routeCommands(trackCommand);

const fixture = useWorldPerTest();
const MANAGER =
  PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages;
const FIVE_MINUTES = 5 * 60_000;

function withPlayers(options: ProcessOptions = {}): ProcessOptions {
  const sources = (services: Services) => [
    kpdSource(services),
    playersSource(fixture.world.config, services.demand),
  ];
  return { sources, ...options };
}

async function track(player: string, channelId = fixture.world.channelId) {
  const reply = await invoke(
    fixture.world,
    'track',
    'add',
    { player, channel: channelId },
    { memberPermissions: MANAGER },
  ).final();
  return reply.embeds[0]?.description ?? '';
}

function matchPosts(channelId = fixture.world.channelId) {
  return posted(fixture.world, channelId).filter((message) =>
    message.embeds[0]?.title?.endsWith('finished a ranked match'),
  );
}

describe('/track', () => {
  it('posts one message for a ranked match played after the first look, with result, K/D/A, map and MMR change', async () => {
    const { world } = fixture;
    const name = world.sandbox.world.samples.rankedPlayer;
    const process = await fixture.start(withPlayers({ commands: true }));
    expect(await track(name)).toContain('Now following');
    // The first look stores what it sees and announces nothing old.
    await drive(world.clock, process.announcements.pollOnce());
    expect(posted(world)).toEqual([]);

    const matchId = world.sandbox.activity.play(name, {
      kills: 21,
      deaths: 7,
      assists: 4,
      victory: 1,
      mmrChange: 17,
    });
    await world.clock.advance(FIVE_MINUTES);
    await drive(world.clock, process.announcements.pollOnce());
    const posts = matchPosts();
    expect(posts).toHaveLength(1);
    const embed = posts[0]?.embeds[0];
    expect(embed?.description).toContain(String(matchId));
    const fields = Object.fromEntries((embed?.fields ?? []).map((f) => [f.name, f.value]));
    expect(fields['Result']).toBe('Win');
    expect(fields['K / D / A']).toBe('21 / 7 / 4');
    expect(fields['MMR']).toMatch(/\(\+17\)$/);
    expect(fields['Map']).not.toBe('—');

    // Nothing new: nothing more, and the next look costs one request.
    await world.clock.advance(FIVE_MINUTES);
    await drive(world.clock, process.announcements.pollOnce());
    expect(matchPosts()).toHaveLength(1);
  });

  it('posts exactly once when the process dies between storing the event and posting it', async () => {
    const { world } = fixture;
    const name = world.sandbox.world.samples.rankedPlayer;
    const first = await fixture.start(withPlayers({ commands: true }));
    await track(name);
    await drive(world.clock, first.announcements.pollOnce());
    await first.stop();

    world.sandbox.activity.play(name, { victory: 0 });
    await world.clock.advance(FIVE_MINUTES);
    let crashed = false;
    const hook: StepHook = (at) => {
      if (crashed || at === 'stored') {
        crashed = true;
        throw new Error(`crash at ${at}`);
      }
    };
    const crashing = await fixture.start(withPlayers({ announcements: { hook } }));
    await expect(drive(world.clock, crashing.announcements.pollOnce())).rejects.toThrow(/crash at/);
    await crashing.stop();
    expect(matchPosts()).toHaveLength(0);

    // The crash came before any delivery was claimed: nothing to wait for before the restart.
    const restarted = await fixture.start(withPlayers());
    await world.clock.advance(FIVE_MINUTES);
    await drive(world.clock, restarted.announcements.pollOnce());
    await drive(world.clock, restarted.announcements.pollOnce());
    expect(matchPosts()).toHaveLength(1);
    expect(matchPosts()[0]?.embeds[0]?.fields?.find((f) => f.name === 'Result')?.value).toBe('Loss');
  });

  it('posts level ups and clan changes, and disables the subscription when its channel is deleted', async () => {
    const { world } = fixture;
    const name = world.sandbox.world.samples.player;
    const dead = world.addChannel('gone');
    const process = await fixture.start(withPlayers({ commands: true }));
    await track(name);
    await track(name, dead);
    await drive(world.clock, process.announcements.pollOnce());

    const level = world.sandbox.activity.levelUp(name, 2);
    // A clan whose name is markdown: shown as text.
    world.sandbox.activity.setClan(name, world.sandbox.world.samples.markdownClan);
    world.discord.failChannel(dead, { status: 404, code: 10003 });
    await world.clock.advance(FIVE_MINUTES);
    await drive(world.clock, process.announcements.pollOnce());
    const titles = posted(world).map((message) => message.embeds[0]?.title);
    expect(titles).toEqual([`${name} reached level ${level}`, `${name} changed clan`]);
    const clanPost = posted(world)[1]?.embeds[0]?.description ?? '';
    expect(clanPost).toContain(text(world.sandbox.world.samples.markdownClan, 100));
    const tracked = (await world.repos.subscriptions.all()).filter((s) => s.kind === 'track');
    expect(tracked.find((s) => s.channelId === dead)?.state).toMatchObject({
      status: 'disabled',
      code: 10003,
    });
    expect(tracked.find((s) => s.channelId === world.channelId)?.state).toEqual({ status: 'active' });

    const list = await invoke(world, 'track', 'list', {}, { memberPermissions: MANAGER }).final();
    expect(list.embeds[0]?.description).toContain('⚠️');
    expect(list.embeds[0]?.fields?.[0]?.value).toMatch(/every 5 min/);
  });

  it('refuses a player who does not exist, and tracks nothing then', async () => {
    const { world } = fixture;
    await fixture.start(withPlayers({ commands: true }));
    const reply = await invoke(
      world,
      'track',
      'add',
      { player: 'NoSuchPlayerAnywhere', channel: world.channelId },
      { memberPermissions: MANAGER },
    ).final();
    expect(reply.embeds[0]?.description ?? reply.content).toContain('No player named `NoSuchPlayerAnywhere`');
    expect((await world.repos.subscriptions.all()).filter((s) => s.kind === 'track')).toEqual([]);
  });
});

describe('/track list', () => {
  it('shows the interval the background’s one plan gives this server, which alone stretches when it tracks many', async () => {
    const { world } = fixture;
    await fixture.start(withPlayers({ commands: true }));
    const since = world.clock.now() - 60_000;
    const base = { locale: 'en-US', createdBy: '1', since, state: { status: 'active' as const } };
    // This server and three others track 50 players each, one more tracks 2; 20 skins are watched.
    const servers = [world.guildId, '910000000000000001', '910000000000000002', '910000000000000003'];
    let count = 0;
    const add = async (guildId: string, player: string) => {
      await world.repos.subscriptions.create({
        ...base,
        createdAt: since + count,
        guildId,
        channelId: guildId === world.guildId ? world.channelId : `8${guildId.slice(1)}`,
        kind: 'track',
        options: { playerId: 1_000 + count, playerName: player },
      });
      count += 1;
    };
    for (const [server, guildId] of servers.entries())
      for (let n = 0; n < 50; n += 1) await add(guildId, `Heavy${server}x${n}`);
    await add('920000000000000001', 'LightA');
    await add('920000000000000001', 'LightB');
    const alerts = new AlertRepository(world.db);
    for (let skin = 0; skin < 20; skin += 1) {
      const added = await alerts.add(
        {
          guildId: '920000000000000001',
          userId: `30000000000000${String(skin).padStart(4, '0')}`,
          channelId: undefined,
          skinIndex: skin,
          skinName: `skin ${skin}`,
          direction: 'below',
          threshold: 100,
          locale: 'en-US',
        },
        { user: 10, guild: 100 },
        world.clock.now(),
      );
      expect(added.status).toBe('created');
    }

    const plan = backgroundPlan(
      await demandReader(world.db)(await world.repos.subscriptions.active('track')),
      {
        settings: world.config.follow,
        capacityPerMinute: followCapacity(world.config),
      },
    );
    const mine = plan.trackedMs.get(world.guildId) ?? 0;
    expect(plan.trackedMs.get('920000000000000001')).toBe(FIVE_MINUTES);
    expect(mine).toBeGreaterThan(FIVE_MINUTES);

    const list = await invoke(world, 'track', 'list', {}, { memberPermissions: MANAGER }).final();
    expect(list.embeds[0]?.title).toContain('50');
    const shown = list.embeds[0]?.fields?.[0]?.value ?? '';
    expect(shown).toContain(`every ${Math.round(mine / 60_000)} min`);
    expect(shown).toContain('the aim is 5 min');
    expect(shown).toContain("this server's share");
  });
});
