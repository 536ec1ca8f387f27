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
    expect(embed?.description).toMatch(
      new RegExp(
        `^The ${page} most listed skins · on sale: \\*\\*[\\d,]+\\*\\* · in circulation: \\*\\*[\\d,]+\\*\\*$`,
      ),
    );
    expect(fields['Skins']).toBeUndefined();
    const mostListed = [...market].sort(
      (a, b) => b.listings.length - a.listings.length || a.skinIndex - b.skinIndex,
    )[0];
    // No raw ids, no ISO dates, whole KR everywhere, and no words about the query.
    expect(fields['Most listed']).not.toMatch(/\(#\d+\)/);
    expect(fields['Sales of the last 7 days']).not.toMatch(/\d{4}-\d{2}-\d{2}|\d\.\d+ KR/);
    expect(embed?.footer?.text).toBe('Prices are the lowest and highest asks now · sales days are UTC days');
    expect(fields['Most listed']?.split('\n')[0]).toContain(`${mostListed?.listings.length} on sale`);
    expect(fields['Sales of the last 7 days']).toBeDefined();
    expect(reply.attachments[0]?.filename).toBe('market-overview.png');
    expect(reply.attachments[0]?.bytes.subarray(0, 4)).toEqual(PNG);
  });
});
