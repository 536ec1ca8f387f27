import { describe, expect, it } from 'vitest';
import { command as playerCommand } from '../../../commands/player.ts';
import type { PlayerProfile } from '../../../src/api/schemas/index.ts';
import { DAY_MS, SnapshotStore } from '../../../src/players/snapshots.ts';
import { statsOf } from '../../../src/players/stats.ts';
import { commandOptions, routeCommands, useWorldPerTest } from '../../support/announcements.ts';
import { pngSize } from '../../support/pixels.ts';

/** `/player profile` through the stand-in: the card on the overview, the ranked chart on its section. */
routeCommands(playerCommand);

const fixture = useWorldPerTest();
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

function profile(name: string) {
  const { world } = fixture;
  return world.discord
    .invokeCommand({
      name: 'player',
      guildId: world.guildId,
      options: commandOptions('player', 'profile', { name }),
      user: { id: '300000000000000001', username: 'user001' },
    })
    .final();
}

async function profileOf(name: string): Promise<PlayerProfile> {
  const { world } = fixture;
  const base = world.config.game.baseUrl.replace(/\/+$/, '');
  const reply = await fetch(`${base}/api/player/${encodeURIComponent(name)}`, {
    headers: { [world.config.game.apiKeyHeader]: world.config.game.apiKey ?? '' },
  });
  return ((await reply.json()) as { data: PlayerProfile }).data;
}

/** Standings of the past, as the background would have kept them: MMR `perDay` lower for each day back. */
async function keepPastMmr(player: PlayerProfile, days: number, perDay: number) {
  const store = new SnapshotStore(fixture.world.db);
  const now = fixture.world.clock.now();
  const stats = statsOf(player);
  for (let day = days; day >= 1; day -= 1) {
    await store.capture({
      playerId: player.player_id,
      playerName: player.player_name,
      at: now - day * DAY_MS,
      stats: { ...stats, ranked: stats.ranked.map((r) => ({ ...r, mmr: r.mmr - day * perDay })) },
    });
  }
}

describe('/player profile card', () => {
  it('attaches the card to the overview, shown as the embed’s image and described for screen readers', async () => {
    await fixture.start({ commands: true });
    const name = fixture.world.sandbox.world.samples.rankedPlayer;
    const reply = await profile(name);
    expect(reply.attachments).toHaveLength(1);
    const [card] = reply.attachments;
    expect(card?.filename).toBe('card.png');
    expect(card?.bytes.subarray(0, 4)).toEqual(PNG);
    expect(pngSize(card!.bytes)).toEqual({ width: 800, height: 360 });
    expect(reply.embeds[0]?.image?.url).toBe('attachment://card.png');
    const player = await profileOf(name);
    expect(card?.description).toContain(player.player_name);
    expect(card?.description).toContain(`Kills ${player.kills?.toLocaleString('en-US')}`);
    expect(card?.description).toContain('Ranked MMR:');
    expect(reply.allowedMentions?.parse ?? []).toEqual([]);
  });

  it('leaves the card off the ranked section, which has its chart with the MMR over the days kept', async () => {
    await fixture.start({ commands: true });
    const name = fixture.world.sandbox.world.samples.rankedPlayer;
    const first = await profile(name);
    const menu = first.components[0] as { components: Array<{ custom_id: string }> };
    const customId = menu.components[0]!.custom_id;
    const without = await fixture.world.discord.selectMenu(first, customId, ['ranked']).final();
    expect(without.attachments.map((file) => file.filename)).toEqual(['ranked.png']);
    expect(without.embeds[0]?.image?.url).toBe('attachment://ranked.png');
    expect(without.attachments[0]?.description).toMatch(/MMR over time shows once/);

    await keepPastMmr(await profileOf(name), 6, 10);
    const again = await profile(name);
    const menuAgain = again.components[0] as { components: Array<{ custom_id: string }> };
    const ranked = await fixture.world.discord
      .selectMenu(again, menuAgain.components[0]!.custom_id, ['ranked'])
      .final();
    expect(ranked.attachments.map((file) => file.filename)).toEqual(['ranked.png']);
    expect(ranked.attachments[0]?.description).toMatch(/MMR over time \(.+\): .+ → /);
    expect(ranked.attachments[0]?.description).not.toMatch(/MMR over time shows once/);
  });
});
