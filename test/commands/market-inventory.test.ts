import { describe, expect, it } from 'vitest';
import { command as playerCommand } from '../../commands/player.ts';
import { commandOptions, routeCommands, useWorldPerTest } from '../support/announcements.ts';

/** `/player inventory` through the stand-in: every skin, paged, valued from the item prices endpoint. */
routeCommands(playerCommand);

const fixture = useWorldPerTest();

async function api<T>(path: string, host: 'base' | 'legacy' = 'base'): Promise<T> {
  const { world } = fixture;
  const base = (host === 'base' ? world.config.game.baseUrl : world.config.game.legacyUrl).replace(
    /\/+$/,
    '',
  );
  const reply = await fetch(`${base}${path}`, {
    headers: { [world.config.game.apiKeyHeader]: world.config.game.apiKey ?? '' },
  });
  const body = (await reply.json()) as { data?: T };
  return (body.data ?? body) as T;
}

type Button = { custom_id?: string; label?: string };

function buttonsOf(message: { components: readonly unknown[] }): Button[] {
  return (message.components as Array<{ components?: Button[] }>).flatMap((row) => row.components ?? []);
}

/** The sandbox player holding the most different skins. */
function richestHolder(): string {
  const kinds = new Map<string, number>();
  for (const market of fixture.world.sandbox.world.market)
    for (const holder of market.holders)
      if (!holder.banned) kinds.set(holder.playerName, (kinds.get(holder.playerName) ?? 0) + 1);
  return [...kinds].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}

describe('/player inventory', () => {
  it('gives the profile the same inventory value, in KR, as /player inventory totals', async () => {
    const { world } = fixture;
    await fixture.start({ commands: true });
    const name = richestHolder();
    const profile = await api<{ inventory?: number }>(`/api/player/${encodeURIComponent(name)}`);
    const run = (sub: string) =>
      world.discord
        .invokeCommand({
          name: 'player',
          guildId: world.guildId,
          options: commandOptions('player', sub, { name }),
        })
        .final();
    const [shown, listed] = [await run('profile'), await run('inventory')];
    const valueOf = (reply: typeof shown) =>
      reply.embeds[0]?.fields?.find((f) => f.name === 'Inventory value')?.value;
    expect(valueOf(shown)).toMatch(/^[\d,]+ KR$/);
    expect(valueOf(shown)).toBe(valueOf(listed));
    // Not the profile's own unitless `inventory` field, which the sandbox (like the spec) defines otherwise.
    expect(profile.inventory).toBeDefined();
    expect(valueOf(shown)).not.toBe(`${(profile.inventory ?? 0).toLocaleString('en-US')} KR`);
  });

  it('pages through every skin with its value and the total, and re-sorts by count with a button', async () => {
    const { world } = fixture;
    await fixture.start({ commands: true });
    const name = richestHolder();
    const items = await api<Array<{ skin_index: number; count: number }>>(
      `/api/player/${encodeURIComponent(name)}/inventory`,
    );
    const prices = await api<Record<string, number | null>>('/webhooks/general/items/prices', 'legacy');
    const total = items.reduce((sum, item) => sum + (prices[String(item.skin_index)] ?? 0) * item.count, 0);
    const reply = await world.discord
      .invokeCommand({
        name: 'player',
        guildId: world.guildId,
        options: commandOptions('player', 'inventory', { name }),
      })
      .final();
    const embed = reply.embeds[0];
    expect(embed?.title).toBe(`Inventory of ${name}`);
    const fields = Object.fromEntries((embed?.fields ?? []).map((f) => [f.name, f.value]));
    expect(fields['Inventory value']).toBe(`${total.toLocaleString('en-US')} KR`);
    expect(fields['Sorted by']).toBe('Value');
    expect(embed?.footer?.text).toContain('At the game’s item prices');
    const lines = embed?.description?.split('\n') ?? [];
    expect(lines.length).toBe(Math.min(15, items.length));
    // Rarity names come from the skin list.
    expect(
      lines.some((line) => /· (Uncommon|Rare|Epic|Legendary|Relic|Contraband|Unobtainable) ·/.test(line)),
    ).toBe(true);
    const buttons = buttonsOf(reply);
    const byCount = buttons.find((b) => b.label === 'Count')?.custom_id;
    expect(byCount).toBeDefined();
    const sorted = await world.discord.clickButton(reply, byCount ?? '').final();
    const counts = (sorted.embeds[0]?.description?.split('\n') ?? []).map((line) =>
      Number(/× ([\d,]+)/.exec(line)?.[1]?.replace(/,/g, '')),
    );
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(Math.max(...counts)).toBe(Math.max(...items.map((i) => i.count)));
    if (items.length > 15) {
      const next = buttonsOf(sorted).find((b) => b.label?.startsWith('Next') === true)?.custom_id;
      const second = await world.discord.clickButton(sorted, next ?? '').final();
      // The second page in the same order: its Previous button (page 1 by count) and the Count button
      // are two buttons, with two ids.
      expect(second.embeds[0]?.title).toBe(sorted.embeds[0]?.title);
      expect(second.embeds[0]?.description).not.toBe(sorted.embeds[0]?.description);
      const ids = buttonsOf(second).map((b) => b.custom_id);
      expect(new Set(ids).size).toBe(ids.length);
      const secondCounts = (second.embeds[0]?.description?.split('\n') ?? []).map((line) =>
        Number(/× ([\d,]+)/.exec(line)?.[1]?.replace(/,/g, '')),
      );
      expect(secondCounts[0]).toBeLessThanOrEqual(counts.at(-1) ?? 0);
    }
  });
});
