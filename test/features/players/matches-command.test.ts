import type { APIButtonComponentWithCustomId } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { command as lobbiesCommand } from '../../../commands/lobbies.ts';
import { command as matchCommand, matchIds } from '../../../commands/match.ts';
import { UserError } from '../../../src/core/user-error.ts';
import type { ComponentContext } from '../../../src/discord/command.ts';
import { command as playerCommand } from '../../../commands/player.ts';
import { decodeComponentId } from '../../../src/discord/component-id.ts';
import type { MessageRecord } from '../../../src/dev/standin/types.ts';
import { commandOptions, routeCommands, useWorldPerTest } from '../../support/announcements.ts';

/** `/player matches` through the stand-in: maps by name, and match ids as buttons that open `/match`. */
routeCommands(playerCommand, matchCommand, lobbiesCommand);

const fixture = useWorldPerTest();
const USER = { id: '300000000000000001', username: 'user001' };

function run(name: string, sub: string | undefined, values: Record<string, string | number>) {
  const { world } = fixture;
  return world.discord
    .invokeCommand({ name, guildId: world.guildId, options: commandOptions(name, sub, values), user: USER })
    .final();
}

/** Every button of the message with a custom id. */
function allButtons(message: MessageRecord): APIButtonComponentWithCustomId[] {
  const rows = message.components as unknown as Array<{ components?: Array<Record<string, unknown>> }>;
  return rows
    .flatMap((row) => row.components ?? [])
    .filter((c) => c['type'] === 2 && typeof c['custom_id'] === 'string')
    .map((c) => c as unknown as APIButtonComponentWithCustomId);
}

function matchButtons(message: MessageRecord): APIButtonComponentWithCustomId[] {
  return allButtons(message).filter((b) => decodeComponentId(b.custom_id)?.command === 'match');
}

function requestsTo(path: RegExp) {
  return fixture.world.sandbox.requests.entries().filter((entry) => path.test(entry.path));
}

describe('/player matches', () => {
  it('names each match’s map with one /maps lookup, and makes each match a button that opens it', async () => {
    await fixture.start({ commands: true });
    const { world } = fixture;
    const name = world.sandbox.world.samples.rankedPlayer;
    const official = new Map(world.sandbox.world.officialMaps.map((m) => [m.id, m.name]));

    const list = await run('player', 'matches', { name });
    const lines = (list.embeds[0]?.description ?? '').split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      const mapName = line.split(' · ')[1] ?? '';
      expect([...official.values()]).toContain(mapName);
      expect(line).not.toMatch(/Map \d|#\d+ ·/);
    }
    expect(requestsTo(/^\/maps$/)).toHaveLength(1);

    const buttons = matchButtons(list);
    expect(buttons).toHaveLength(Math.min(lines.length, 20));
    for (const row of list.components as unknown as Array<{ components: unknown[] }>) {
      expect(row.components.length).toBeLessThanOrEqual(5);
    }
    expect(list.components.length).toBeLessThanOrEqual(5);
    const ids = buttons.map((b) => decodeComponentId(b.custom_id)?.args[0] ?? '');
    expect(ids.every((id) => /^\d+$/.test(id))).toBe(true);
    // No raw id anywhere a player reads: each button says its result, map and date, and the text has no ids.
    const text = JSON.stringify(list.embeds);
    for (const [i, button] of buttons.entries()) {
      expect(button.label).not.toContain(ids[i]!);
      expect(text).not.toContain(ids[i]!);
      expect(button.label!.length).toBeLessThanOrEqual(80);
      expect(button.label).toMatch(
        /^(🟩 Win|🟥 Loss|⬜ Draw|▫️ Result unknown) · .+ · [A-Z][a-z]{2} \d{1,2}$/,
      );
      const mapName = button.label!.split(' · ')[1]!;
      expect([...official.values()]).toContain(mapName);
      // The button and its line are the same match, in the same order.
      expect(lines[i]).toContain(`· ${mapName} ·`);
    }
    // K/D is labelled; the footer says what is listed, in which order, and the page.
    for (const line of lines) expect(line).toMatch(/ · K\/D \d+\/\d+ · /);
    expect(list.embeds[0]?.footer?.text).toBe('All seasons, newest first · page 1');

    // The next page names its maps from the cached list: no second /maps request.
    const next = allButtons(list).find((b) => b.label === 'Next ▶')!;
    const page2 = await world.discord.clickButton(list, next.custom_id, { user: USER }).final();
    expect(page2.embeds[0]?.description).not.toBe(list.embeds[0]?.description);
    expect(requestsTo(/^\/maps$/)).toHaveLength(1);

    const opened = await world.discord
      .clickButton(page2, matchButtons(page2)[0]!.custom_id, { user: USER })
      .final();
    const matchId = decodeComponentId(matchButtons(page2)[0]!.custom_id)?.args[0];
    expect(opened.embeds[0]?.title).toBe(`Ranked match ${matchId}`);
    const mapField = opened.embeds[0]?.fields?.find((f) => f.name === 'Map')?.value ?? '';
    expect([...official.values()].some((m) => mapField.startsWith(m))).toBe(true);
    // The same view as `/match id`.
    const typed = await run('match', undefined, { id: matchId! });
    expect(typed.embeds).toEqual(opened.embeds);
  });

  it('refuses a match button whose id was tampered with', async () => {
    const id = matchIds.open('9007199254740993', 0);
    expect(decodeComponentId(id!)).toMatchObject({
      command: 'match',
      action: 'open',
      args: ['9007199254740993'],
    });
    const forged = decodeComponentId(id!.replace(/:(\d+)~/, ':12ab~'))!;
    const ctx = { id: forged } as unknown as ComponentContext;
    await expect(matchCommand.component!(ctx)).rejects.toBeInstanceOf(UserError);
    const other = decodeComponentId('match:close:1~zz')!;
    await expect(matchCommand.component!({ id: other } as unknown as ComponentContext)).rejects.toMatchObject(
      {
        key: 'common:errors.unknownComponent',
      },
    );
  });
});

describe('/lobbies', () => {
  it('gives each listed game with a free seat its join link, a full one none, and leaves out games about to end', async () => {
    await fixture.start({ commands: true });
    const reply = await run('lobbies', undefined, {});
    const lines = (reply.embeds[0]?.description ?? '').split('\n').slice(2);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      if (line.endsWith(' · 🔒 full')) expect(line).not.toMatch(/https:/);
      else expect(line).toMatch(/ · https:\/\/krunker\.io\/\?game=[A-Z]+:\w+$/);
    }
    expect(lines.some((line) => line.includes('https://'))).toBe(true);
    expect(JSON.stringify(reply)).not.toMatch(/\]\(http/);
    expect(reply.embeds[0]?.footer?.text).toMatch(/\d+ about to end \(under 1 min\) not listed/);
  });
});
