import { describe, expect, it } from 'vitest';
import { command as marketCommand } from '../../commands/market.ts';
import { commandOptions, routeCommands, useWorldPerTest } from '../support/announcements.ts';

/** `/market overview` through the stand-in, on the sandbox's market. */
routeCommands(marketCommand);

const fixture = useWorldPerTest();
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

describe('/market overview', () => {
  it('shows the market’s statistics, the most listed skins with their recent sales, and a chart', async () => {
    const { world } = fixture;
    await fixture.start({ commands: true });
    const reply = await world.discord
      .invokeCommand({
        name: 'market',
        guildId: world.guildId,
        options: commandOptions('market', 'overview'),
      })
      .final();
    const embed = reply.embeds[0];
    expect(embed?.title).toBe('Market overview');
    const fields = Object.fromEntries((embed?.fields ?? []).map((f) => [f.name, f.value]));
    // The first page of /market/stats, as the sandbox serves it (50 rows).
    const market = world.sandbox.world.market;
    const page = Math.min(50, market.length);
    expect(fields['Skins']).toBe(String(page));
    const mostListed = [...market].sort(
      (a, b) => b.listings.length - a.listings.length || a.skinIndex - b.skinIndex,
    )[0];
    expect(fields['Most listed']?.split('\n')[0]).toContain(`(#${mostListed?.skinIndex})`);
    expect(fields['Most listed']?.split('\n')[0]).toContain(`${mostListed?.listings.length} on sale`);
    expect(fields['Recent sales (last 7 days)']).toBeDefined();
    expect(reply.attachments[0]?.filename).toBe('market-overview.png');
    expect(reply.attachments[0]?.bytes.subarray(0, 4)).toEqual(PNG);
  });
});
