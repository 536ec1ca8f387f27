import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { command as marketCommand } from '../../commands/market.ts';
import { commandOptions, routeCommands, useWorldPerTest } from '../support/announcements.ts';

/**
 * Uploads through discord.js never depend on which undici installed the process-wide dispatcher first:
 * our own undici (the game API's transport) is a newer major than discord.js's, and a newer dispatcher
 * cannot send the older one's form bodies. Here the newer one is installed on purpose.
 */
routeCommands(marketCommand);
const fixture = useWorldPerTest();
const previous = getGlobalDispatcher();
const foreign = new Agent();
setGlobalDispatcher(foreign);
afterAll(async () => {
  setGlobalDispatcher(previous);
  await foreign.close();
});

describe('uploads to Discord', () => {
  it('attach a chart even when our own undici holds the global dispatcher', async () => {
    const { world } = fixture;
    await fixture.start({ commands: true });
    const skin = world.sandbox.world.samples.skinIndex;
    const reply = await world.discord
      .invokeCommand({
        name: 'market',
        guildId: world.guildId,
        options: commandOptions('market', 'skin', { skin, days: 30 }),
      })
      .final();
    expect(reply.embeds[0]?.title).not.toBe('Something went wrong');
    expect(reply.attachments[0]?.filename).toMatch(/\.png$/);
  });
});
