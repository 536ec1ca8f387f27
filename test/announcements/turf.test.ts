import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Subscription } from '../../src/announcements/model.ts';
import { text } from '../../src/render/common.ts';
import {
  posted,
  startProcess,
  startWorld,
  subscribeDirectly,
  type Process,
  type World,
} from '../support/announcements.ts';

/**
 * Turf-war announcements from `/territorial-wars/status` polled once per interval: in the sandbox the
 * owners of turf maps change when the UTC day rolls over (the world starts on turf day 249: map 0 goes
 * from Empire to Frostbite and map 2 from Empire to Dynasty on day 250; NoScope keeps map 3).
 */
const DAY_MS = 86_400_000;
let world: World;
let process: Process;

beforeEach(async () => {
  world = await startWorld();
  process = await startProcess(world, { commands: false });
});

afterEach(async () => {
  await process.stop();
  await world.close();
});

function clanId(name: string): number {
  const clan = world.sandbox.world.clans.find((c) => c.name === name);
  if (!clan) throw new Error(`no clan ${name}`);
  return clan.id;
}

async function followClan(name: string): Promise<{ channelId: string; subscription: Subscription }> {
  const channelId = world.addChannel(name.toLowerCase());
  const subscription = await subscribeDirectly(world, {
    kind: 'turf',
    channelId,
    options: { clanId: clanId(name), clanName: name },
  });
  return { channelId, subscription };
}

function titles(channelId: string): string[] {
  return posted(world, channelId).map((m) => m.embeds[0]?.title ?? '');
}

describe('turf announcements', () => {
  it('stores the first status silently, then announces owner changes, gains, losses and the day’s earnings', async () => {
    await subscribeDirectly(world, { kind: 'turf' });
    const frostbite = await followClan('Frostbite');
    const empire = await followClan('Empire');
    const noScope = await followClan('NoScope');
    const status = await process.api.call('turfStatus', {}, { fresh: true });
    expect(status.day).toBe(249);

    await process.announcements.pollOnce();
    expect(world.discord.messages().filter((m) => m.kind === 'channel')).toEqual([]);

    await world.clock.advance(DAY_MS);
    await process.announcements.pollOnce();
    expect(titles(world.channelId).sort()).toEqual([
      'Turf wars: Burg changed hands',
      'Turf wars: Sandstorm changed hands',
    ]);
    expect(posted(world)[0]?.embeds[0]?.description).toMatch(
      /took \*\*(Burg|Sandstorm)\*\* from \*\*Empire\*\*/,
    );

    const earnings = async (name: string) =>
      (await process.api.call('turfClanEarnings', { clanId: clanId(name) })).days.find((d) => d.day === 249)
        ?.kr;
    expect(titles(frostbite.channelId)).toEqual([
      'Frostbite took Burg',
      'Frostbite: turf earnings of day 249',
    ]);
    expect(titles(empire.channelId).sort()).toEqual([
      'Empire lost Burg',
      'Empire lost Sandstorm',
      'Empire: turf earnings of day 249',
    ]);
    expect(titles(noScope.channelId)).toEqual(['NoScope: turf earnings of day 249']);
    const summary = posted(world, noScope.channelId)[0]?.embeds[0]?.description ?? '';
    const kr = (await earnings('NoScope')) ?? 0;
    expect(summary).toContain(kr > 0 ? `${kr.toLocaleString('en-US')} KR` : 'earned nothing');

    // Polling again the same day changes nothing.
    await process.announcements.pollOnce();
    expect(world.discord.messages().filter((m) => m.kind === 'channel')).toHaveLength(2 + 2 + 3 + 1);
  });

  it('tells a season’s first day as every holder losing its map', async () => {
    await subscribeDirectly(world, { kind: 'turf' });
    await world.clock.advance(2 * DAY_MS);
    await process.announcements.pollOnce();
    await world.clock.advance(DAY_MS);
    await process.announcements.pollOnce();
    const descriptions = posted(world).map((m) => m.embeds[0]?.description ?? '');
    expect(descriptions).toHaveLength(3);
    expect(descriptions.every((d) => d.includes('nobody holds it now'))).toBe(true);
    expect(descriptions.join('\n')).toContain(`**${text('*_~|Ghosts|~_*', 100)}** lost **Subzero**`);
  });

  it('survives a crash between storing the changes and storing the new state, announcing each once', async () => {
    const all = await subscribeDirectly(world, { kind: 'turf' });
    await process.announcements.pollOnce();
    await world.clock.advance(DAY_MS);
    await process.stop();
    process = await startProcess(world, {
      commands: false,
      announcements: {
        hook: (step) => {
          if (step === 'stored') throw new Error('crash');
        },
      },
    });
    await expect(process.announcements.pollOnce()).rejects.toThrow('crash');
    await process.stop();
    process = await startProcess(world, { commands: false });
    await process.announcements.pollOnce();
    await process.announcements.pollOnce();
    expect(titles(world.channelId)).toHaveLength(2);
    expect((await world.repos.turf.get())?.day).toBe(250);
    expect(all.kind).toBe('turf');
  });

  it('does not call the turf status while no subscription needs it', async () => {
    await process.announcements.pollOnce();
    expect(world.sandbox.requests.count('/territorial-wars/status')).toBe(0);
  });
});
