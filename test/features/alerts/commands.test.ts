import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { command as alertCommand } from '../../../commands/alert.ts';
import { alertsSource } from '../../../src/features/alerts/watch.ts';
import { AlertRepository } from '../../../src/features/alerts/store.ts';
import {
  commandOptions,
  drive,
  routeCommands,
  useWorldPerTest,
  type OptionValue,
} from '../../support/announcements.ts';
import { dms, restFor } from '../../support/alerts.ts';

/** `/alert add`, `/alert list`, `/alert remove` through the stand-in, and the worker's poll into a DM. */
routeCommands(alertCommand);

const fixture = useWorldPerTest();
const USER = '300000000000000001';

function run(
  sub: string,
  values: Record<string, OptionValue> = {},
  extra: { userId?: string; permissions?: bigint } = {},
) {
  const { world } = fixture;
  const userId = extra.userId ?? USER;
  return world.discord
    .invokeCommand({
      name: 'alert',
      guildId: world.guildId,
      options: commandOptions('alert', sub, values),
      user: { id: userId, username: `user${userId.slice(-3)}` },
      ...(extra.permissions === undefined ? {} : { memberPermissions: extra.permissions }),
    })
    .final();
}

/** A skin of the sandbox with something listed, and its lowest ask. */
function listedSkin(): { index: number; price: number } {
  const market = fixture.world.sandbox.world.market.find((m) => m.listings.length > 0);
  if (!market) throw new Error('the sandbox lists nothing');
  return { index: market.skinIndex, price: market.listings[0]?.price ?? 0 };
}

describe('/alert', () => {
  it('adds, lists and removes an alert, and the worker’s poll sends it to the DM once', async () => {
    const { world } = fixture;
    const process = await fixture.start({
      commands: true,
      sources: (services) => [alertsSource(services, restFor(world), services.demand)],
    });
    const skin = listedSkin();
    const added = await run('add', {
      skin: skin.index,
      direction: 'above',
      price: Math.max(1, skin.price - 1),
    });
    const embed = added.embeds[0];
    expect(embed?.title).toBe('Price alert set');
    expect(embed?.description).toContain('your DMs');
    expect(embed?.fields?.find((f) => f.name === 'Lowest price now')?.value).toBe(
      `${skin.price.toLocaleString('en-US')} KR`,
    );
    const [alert] = await new AlertRepository(world.db).forUser(USER);
    expect(alert?.skinIndex).toBe(skin.index);

    const listed = await run('list');
    expect(listed.embeds[0]?.title).toBe('Your price alerts (1 of 10)');
    expect(listed.embeds[0]?.description).toContain(`\`${alert?.id}\``);
    expect(listed.embeds[0]?.description).toContain('waiting');

    dms(world);
    // Two checks see the price past the threshold: it fires.
    await drive(world.clock, process.announcements.pollOnce());
    expect(dms(world)).toHaveLength(0);
    await world.clock.advance(5 * 60_000);
    await drive(world.clock, process.announcements.pollOnce());
    const sent = dms(world);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.embeds[0]?.description).toContain('at or above');
    await world.clock.advance(60 * 60_000);
    await drive(world.clock, process.announcements.pollOnce());
    expect(dms(world)).toHaveLength(1);
    expect((await run('list')).embeds[0]?.description).toMatch(/fired <t:\d+:R>/);

    const removed = await run('remove', { id: alert?.id ?? '' });
    expect(removed.embeds[0]?.description).toContain('removed');
    expect(await new AlertRepository(world.db).forUser(USER)).toEqual([]);
    const again = await run('remove', { id: alert?.id ?? '' });
    expect(again.embeds[0]?.description ?? again.content).toMatch(/no price alert with the id/);
  });

  it('needs Manage Server to post in a channel, and refuses an 11th alert', async () => {
    const { world } = fixture;
    await fixture.start({ commands: true });
    const skin = listedSkin();
    const refused = await run(
      'add',
      { skin: skin.index, direction: 'below', price: 10, channel: world.channelId },
      { permissions: PermissionFlagsBits.SendMessages },
    );
    expect(refused.embeds[0]?.description ?? refused.content).toMatch(/Manage Server/);
    const managed = await run(
      'add',
      { skin: skin.index, direction: 'below', price: 10, channel: world.channelId },
      { permissions: PermissionFlagsBits.ManageGuild },
    );
    expect(managed.embeds[0]?.description).toContain(`<#${world.channelId}>`);
    // The channel alert is the server's: the user still has all 10 of their own for DMs.
    for (let i = 1; i <= 10; i += 1) {
      const made = await run('add', { skin: skin.index, direction: 'below', price: 10 + i });
      expect(made.embeds[0]?.title).toBe('Price alert set');
    }
    const over = await run('add', { skin: skin.index, direction: 'below', price: 99 });
    expect(over.embeds[0]?.description ?? over.content).toMatch(/already have 10 price alerts/);
  });

  it('a user who does not accept DMs: the alert is disabled, and /alert list says why', async () => {
    const { world } = fixture;
    const process = await fixture.start({
      commands: true,
      sources: (services) => [alertsSource(services, restFor(world), services.demand)],
    });
    world.discord.setDmsOpen(USER, false);
    const skin = listedSkin();
    await run('add', { skin: skin.index, direction: 'above', price: 1 });
    await drive(world.clock, process.announcements.pollOnce());
    await world.clock.advance(5 * 60_000);
    await drive(world.clock, process.announcements.pollOnce());
    expect(dms(world)).toHaveLength(0);
    const listed = await run('list');
    expect(listed.embeds[0]?.description).toMatch(
      /⚠️ disabled: your DMs do not accept messages from the bot/,
    );
  });

  it('a manager lists every alert made in the server, paged with owners, and removes a member’s', async () => {
    const { world } = fixture;
    await fixture.start({ commands: true });
    const skin = listedSkin();
    const repo = new AlertRepository(world.db);
    const now = world.clock.now();
    // Five members fill their own ten DM alerts each: none of the server's 50 places.
    for (let member = 0; member < 5; member += 1)
      for (let i = 0; i < 10; i += 1) {
        const made = await repo.add(
          {
            guildId: world.guildId,
            userId: `30000000000000050${member}`,
            channelId: undefined,
            skinIndex: skin.index,
            skinName: 'Skin',
            direction: 'below',
            threshold: 100 + i,
            locale: 'en-US',
          },
          { user: 10, guild: 50 },
          now,
        );
        expect(made.status).toBe('created');
      }
    const admin = { permissions: PermissionFlagsBits.ManageGuild, userId: '300000000000000900' };
    const channelAlert = await run(
      'add',
      { skin: skin.index, direction: 'below', price: 10, channel: world.channelId },
      admin,
    );
    expect(channelAlert.embeds[0]?.title).toBe('Price alert set');

    // A member may not see the server's list.
    const member = { userId: '300000000000000502' };
    const refused = await run('list', { server: true }, member);
    expect(refused.embeds[0]?.description ?? refused.content).toMatch(/Manage Server/);
    const first = await run('list', { server: true }, admin);
    expect(first.embeds[0]?.title).toBe('Price alerts made in this server (51)');
    // Ten a page, each with its owner named (alerts are listed by id, so any owner may come first).
    const owners = (description: string | undefined) => (description ?? '').match(/ by <@\d+>/g) ?? [];
    expect(owners(first.embeds[0]?.description)).toHaveLength(10);
    expect(first.embeds[0]?.footer?.text).toContain('Channel alerts: 1 of 50');
    const buttons = (first.components[0] as { components: Array<{ custom_id: string; label: string }> })
      .components;
    expect(buttons.map((button) => button.label)).toEqual(['◀ Previous', 'Page 1 of 6', 'Next ▶']);
    const second = await world.discord
      .clickButton(first, buttons[2]?.custom_id ?? '', {
        memberPermissions: PermissionFlagsBits.ManageGuild,
      })
      .final();
    expect(owners(second.embeds[0]?.description)).toHaveLength(10);
    const lines = (description: string | undefined) => new Set((description ?? '').split('\n'));
    const firstLines = lines(first.embeds[0]?.description);
    expect([...lines(second.embeds[0]?.description)].filter((line) => firstLines.has(line))).toEqual([]);

    // The manager removes a member's DM alert: the member is named, and it is gone.
    const [victim] = await repo.forUser('300000000000000503');
    const removed = await run('remove', { id: victim?.id ?? '' }, admin);
    expect(removed.embeds[0]?.description).toContain('of <@300000000000000503>');
    expect(await repo.get(victim?.id ?? '')).toBeUndefined();
    // Another member may not.
    const [other] = await repo.forUser('300000000000000504');
    const notYours = await run('remove', { id: other?.id ?? '' }, member);
    expect(notYours.embeds[0]?.description ?? notYours.content).toMatch(/no price alert with the id/);
    expect(await repo.get(other?.id ?? '')).toBeDefined();
  });
});
