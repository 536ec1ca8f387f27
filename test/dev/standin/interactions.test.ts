import {
  ActionRowBuilder,
  ApplicationCommandOptionType,
  AttachmentBuilder,
  ButtonBuilder,
  ButtonStyle,
  DiscordAPIError,
  EmbedBuilder,
  Events,
  LabelBuilder,
  MessageFlags,
  ModalBuilder,
  Routes,
  StringSelectMenuBuilder,
  TextInputBuilder,
  TextInputStyle,
  type Client,
  type Interaction,
} from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDiscordStandin, type DiscordStandin, type Guild } from '../../../src/dev/standin/index.ts';
import { readyClient, tinyPng } from '../../support/standin.ts';

let standin: DiscordStandin;
let client: Client;
let guild: Guild;
let channelId: string;

beforeEach(async () => {
  standin = await startDiscordStandin();
  guild = standin.addGuild({ name: 'Arena', preferredLocale: 'fr' });
  channelId = standin.addChannel(guild.id, { name: 'general' }).id;
  client = await readyClient(standin);
});

afterEach(async () => {
  await client.destroy();
  await standin.close();
});

/**
 * Runs the handler for every interaction, keeping its failures for the test to see; `settled` resolves
 * once the handler of the first interaction has finished, either way (what a test awaits instead of
 * polling).
 */
function handle(
  handler: (interaction: Interaction) => Promise<unknown>,
): unknown[] & { readonly settled: Promise<void> } {
  const failures: unknown[] = [];
  let finished!: () => void;
  const settled = new Promise<void>((resolve) => (finished = resolve));
  client.on(Events.InteractionCreate, (interaction) => {
    handler(interaction)
      .catch((error: unknown) => failures.push(error))
      .finally(finished);
  });
  return Object.assign(failures, { settled });
}

describe('slash commands through the stand-in', () => {
  it('delivers a ChatInputCommandInteraction with its options, locale and guild, and records the reply', async () => {
    const seen: string[] = [];
    handle(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      seen.push(
        interaction.commandName,
        interaction.options.getString('player', true),
        interaction.locale,
        String(interaction.guildLocale),
        String(interaction.guild?.name),
        String(interaction.channel?.id),
      );
      await interaction.reply({ content: 'Stats for Ghost', allowedMentions: { parse: [] } });
    });
    const pending = standin.invokeCommand({
      name: 'player',
      guildId: guild.id,
      locale: 'de',
      options: [{ name: 'player', type: ApplicationCommandOptionType.String, value: 'Ghost' }],
    });
    const reply = await pending.final();
    expect(seen).toEqual(['player', 'Ghost', 'de', 'fr', 'Arena', channelId]);
    expect(reply).toMatchObject({
      kind: 'reply',
      content: 'Stats for Ghost',
      channelId,
      interactionId: pending.id,
    });
    expect(reply.allowedMentions).toEqual({ parse: [] });
    expect((await pending.response()).type).toBe(4);
    expect(standin.messages(channelId).map((m) => m.id)).toEqual([reply.id]);
  });

  it('defers, then edits the reply with an embed and a PNG attachment', async () => {
    handle(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      const file = new AttachmentBuilder(tinyPng, { name: 'card.png' });
      const embed = new EmbedBuilder().setTitle('Ghost').setImage('attachment://card.png');
      await interaction.editReply({ embeds: [embed], files: [file] });
    });
    const pending = standin.invokeCommand({ name: 'card', guildId: guild.id });
    const response = await pending.response();
    expect(response.type).toBe(5);
    expect(response.data).toEqual({ flags: MessageFlags.Ephemeral });
    const reply = await pending.final();
    expect(reply.flags).toBe(MessageFlags.Ephemeral);
    expect(reply.embeds).toEqual([{ title: 'Ghost', image: { url: 'attachment://card.png' } }]);
    expect(reply.attachments).toHaveLength(1);
    expect(reply.attachments[0]).toMatchObject({
      filename: 'card.png',
      size: tinyPng.length,
      contentType: 'image/png',
    });
    expect(reply.attachments[0]?.bytes.equals(tinyPng)).toBe(true);
    expect(reply.edits).toBe(1);
    const served = await fetch(reply.attachments[0]!.url);
    expect(Buffer.from(await served.arrayBuffer()).equals(tinyPng)).toBe(true);
  });

  it('fills a deferred reply with the first follow-up, and adds later ones as follow-ups', async () => {
    const handled = handle(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.deferReply();
      await interaction.followUp('first');
      await interaction.followUp({ content: 'second', flags: MessageFlags.Ephemeral });
    });
    const pending = standin.invokeCommand({ name: 'feed', guildId: guild.id });
    const reply = await pending.final();
    expect(reply.content).toBe('first');
    expect(reply.flags).toBe(0);
    await handled.settled;
    expect(pending.followUps()).toHaveLength(1);
    expect(pending.followUps()[0]).toMatchObject({
      kind: 'followUp',
      content: 'second',
      flags: MessageFlags.Ephemeral,
    });
  });

  it('returns the message with withResponse, fetches it with fetchReply and removes it with deleteReply', async () => {
    const seen: unknown[] = [];
    const handled = handle(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      const response = await interaction.reply({ content: 'kept for a moment', withResponse: true });
      seen.push(response.resource?.message?.content, response.interaction.responseMessageLoading);
      seen.push((await interaction.fetchReply()).content);
      await interaction.deleteReply();
      seen.push('deleted');
    });
    const pending = standin.invokeCommand({ name: 'temp', guildId: guild.id });
    await pending.final();
    await handled.settled;
    expect(seen).toEqual(['kept for a moment', false, 'kept for a moment', 'deleted']);
    expect(standin.messages()).toEqual([]);
  });

  it('answers commands in a DM with a user and no member', async () => {
    const seen: unknown[] = [];
    handle(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      seen.push(
        interaction.inGuild(),
        interaction.guildId,
        interaction.user.id,
        interaction.member,
        interaction.context,
      );
      await interaction.reply('hello in private');
    });
    const pending = standin.invokeCommand({
      name: 'help',
      guildId: null,
      user: { id: '555000000000000001', username: 'solo' },
    });
    const reply = await pending.final();
    expect(seen).toEqual([false, null, '555000000000000001', null, 1]);
    expect(reply.guildId).toBeNull();
    expect(reply.content).toBe('hello in private');
  });

  it('passes the permissions of the bot and of the member, and resolved users', async () => {
    const perms: Array<bigint | undefined> = [];
    let resolvedName: string | undefined;
    handle(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      perms.push(interaction.appPermissions.bitfield, interaction.memberPermissions?.bitfield);
      resolvedName = interaction.options.getUser('target')?.username;
      await interaction.reply('ok');
    });
    standin.setBotPermissions(guild.id, channelId, 3072n);
    await standin
      .invokeCommand({
        name: 'whois',
        guildId: guild.id,
        memberPermissions: 8n,
        user: { id: '700000000000000001', username: 'asker' },
        options: [{ name: 'target', type: ApplicationCommandOptionType.User, value: '300000000000000001' }],
      })
      .final();
    expect(perms).toEqual([3072n, 8n]);
    expect(resolvedName).toBe('guild-owner');
  });

  it('refuses a first reply that comes after the interaction’s window with 10062 Unknown interaction', async () => {
    // A window of 0 ms (Discord's is 3 s): any reply comes after it, and nothing waits for time to pass.
    const strict = await startDiscordStandin({ interactionTimeoutMs: 0 });
    const strictClient = await readyClient(strict);
    try {
      const strictGuild = strict.addGuild({ name: 'Strict' });
      strict.addChannel(strictGuild.id, { name: 'general' });
      const failure = new Promise<unknown>((resolve) => {
        strictClient.on(Events.InteractionCreate, (interaction) => {
          if (!interaction.isChatInputCommand()) return;
          interaction.reply('too late').then(() => resolve(undefined), resolve);
        });
      });
      const pending = strict.invokeCommand({ name: 'slow', guildId: strictGuild.id });
      const error = await failure;
      expect(error).toBeInstanceOf(DiscordAPIError);
      expect(error).toMatchObject({ code: 10062, status: 404 });
      // No callback was recorded (a wait of 0 ms: it would be there already).
      await expect(pending.response(0)).rejects.toThrow(/timed out/);
      expect(strict.messages()).toEqual([]);
    } finally {
      await strictClient.destroy();
      await strict.close();
    }
  });

  it('refuses a second initial response with 40060', async () => {
    const failures = handle(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.reply('once');
      await client.rest.post(Routes.interactionCallback(interaction.id, interaction.token), {
        body: { type: 4, data: { content: 'twice' } },
        auth: false,
      });
    });
    await standin.invokeCommand({ name: 'twice', guildId: guild.id }).final();
    await failures.settled;
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ code: 40060, status: 400 });
    expect(standin.messages().map((m) => m.content)).toEqual(['once']);
  });

  it('rejects a reply Discord would reject (content over 2000 characters) with 50035', async () => {
    const failures = handle(async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.reply('x'.repeat(2001));
    });
    const pending = standin.invokeCommand({ name: 'long', guildId: guild.id });
    await failures.settled;
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ code: 50035, status: 400 });
    expect((failures[0] as Error).message).toContain('content[BASE_TYPE_MAX_LENGTH]');
    // No callback was recorded (a wait of 0 ms: it would be there already).
    await expect(pending.response(0)).rejects.toThrow();
  });
});

describe('components, autocomplete and modals through the stand-in', () => {
  it('clicks a button and sees the message updated in place', async () => {
    handle(async (interaction) => {
      if (interaction.isChatInputCommand()) {
        const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
          new ButtonBuilder().setCustomId('page:2').setLabel('Next').setStyle(ButtonStyle.Primary),
        );
        await interaction.reply({ content: 'page 1', components: [row] });
      } else if (interaction.isButton()) {
        await interaction.update({
          content: `page ${interaction.customId.split(':')[1] ?? '?'}`,
          components: [],
        });
      }
    });
    const first = await standin.invokeCommand({ name: 'pages', guildId: guild.id }).final();
    const click = standin.clickButton(first, 'page:2');
    const updated = await click.final();
    expect((await click.response()).type).toBe(7);
    expect(updated.id).toBe(first.id);
    expect(updated.content).toBe('page 2');
    expect(updated.components).toEqual([]);
    expect(() => standin.clickButton(updated, 'page:2')).toThrow(/no component/);
  });

  it('selects from a string select menu, deferring the update then editing', async () => {
    let values: string[] = [];
    handle(async (interaction) => {
      if (interaction.isChatInputCommand()) {
        const menu = new StringSelectMenuBuilder()
          .setCustomId('map')
          .addOptions({ label: 'Dust', value: 'dust' }, { label: 'Harbor', value: 'harbor' });
        await interaction.reply({
          content: 'pick',
          components: [new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(menu)],
        });
      } else if (interaction.isStringSelectMenu()) {
        values = interaction.values;
        await interaction.deferUpdate();
        await interaction.editReply({ content: `map: ${interaction.values.join(',')}`, components: [] });
      }
    });
    const menu = await standin.invokeCommand({ name: 'maps', guildId: guild.id }).final();
    expect(() => standin.selectMenu(menu, 'map', ['nowhere'])).toThrow(/offers no option/);
    const pick = standin.selectMenu(menu, 'map', ['harbor']);
    const edited = await pick.final();
    expect(values).toEqual(['harbor']);
    expect((await pick.response()).type).toBe(6);
    expect(edited).toMatchObject({ id: menu.id, content: 'map: harbor' });
  });

  it('answers autocomplete with choices', async () => {
    handle(async (interaction) => {
      if (!interaction.isAutocomplete()) return;
      const typed = interaction.options.getFocused();
      await interaction.respond([{ name: `${typed}-one`, value: `${typed}1` }]);
    });
    const pending = standin.autocomplete({
      name: 'player',
      guildId: guild.id,
      options: [{ name: 'name', type: ApplicationCommandOptionType.String, value: 'gho', focused: true }],
    });
    const response = await pending.response();
    expect(response.type).toBe(8);
    expect(response.data).toEqual({ choices: [{ name: 'gho-one', value: 'gho1' }] });
    await expect(pending.final(10)).rejects.toThrow(/shows no message/);
  });

  it('shows a modal and receives its submission', async () => {
    let reason: string | undefined;
    handle(async (interaction) => {
      if (interaction.isChatInputCommand()) {
        const modal = new ModalBuilder()
          .setCustomId('report')
          .setTitle('Report')
          .addLabelComponents(
            new LabelBuilder()
              .setLabel('Why')
              .setTextInputComponent(
                new TextInputBuilder().setCustomId('reason').setStyle(TextInputStyle.Paragraph),
              ),
          );
        await interaction.showModal(modal);
      } else if (interaction.isModalSubmit()) {
        reason = interaction.fields.getTextInputValue('reason');
        await interaction.reply({ content: 'thanks', flags: MessageFlags.Ephemeral });
      }
    });
    const command = standin.invokeCommand({ name: 'report', guildId: guild.id });
    expect((await command.response()).type).toBe(9);
    expect(() => standin.submitModal('report', { other: 'x' }, { from: command })).toThrow(/no text input/);
    const submitted = await standin.submitModal('report', { reason: 'aimbot' }, { from: command }).final();
    expect(reason).toBe('aimbot');
    expect(submitted).toMatchObject({ content: 'thanks', flags: MessageFlags.Ephemeral });
  });
});
