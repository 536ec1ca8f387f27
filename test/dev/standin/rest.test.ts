import {
  ApplicationCommandOptionType,
  DiscordAPIError,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  Events,
  PermissionFlagsBits,
  RESTEvents,
  type Client,
  type TextChannel,
} from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startDiscordStandin, type DiscordStandin } from '../../../src/dev/standin/index.ts';
import { readyClient, tinyPng } from '../../support/standin.ts';

let standin: DiscordStandin | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.destroy();
  await standin?.close();
  client = undefined;
  standin = undefined;
});

async function setUp(options: Parameters<typeof startDiscordStandin>[0] = {}) {
  const s = await startDiscordStandin(options);
  standin = s;
  const guild = s.addGuild({});
  const channel = s.addChannel(guild.id, { name: 'feed' });
  const c = await readyClient(s);
  client = c;
  const textChannel = c.channels.cache.get(channel.id) as TextChannel;
  return { s, c, guild, channel, textChannel };
}

describe('channel messages', () => {
  it('creates one message for two sends with the same nonce and enforceNonce', async () => {
    const { s, textChannel, channel } = await setUp();
    const first = await textChannel.send({ content: 'Turf war starts', nonce: 'tw-42', enforceNonce: true });
    const second = await textChannel.send({ content: 'Turf war starts', nonce: 'tw-42', enforceNonce: true });
    expect(second.id).toBe(first.id);
    const other = await textChannel.send({ content: 'Turf war ends', nonce: 'tw-43', enforceNonce: true });
    expect(other.id).not.toBe(first.id);
    expect(s.messages(channel.id).map((m) => [m.content, m.nonce])).toEqual([
      ['Turf war starts', 'tw-42'],
      ['Turf war ends', 'tw-43'],
    ]);
  });

  it('records attachments sent with channel.send and edits made with message.edit', async () => {
    const { s, textChannel } = await setUp();
    const sent = await textChannel.send({
      content: 'map',
      files: [{ attachment: tinyPng, name: 'map.png' }],
    });
    await sent.edit({ content: 'map (updated)' });
    const [record] = s.messages();
    expect(record).toMatchObject({ kind: 'channel', content: 'map (updated)', edits: 1 });
    expect(record?.attachments.map((a) => [a.filename, a.size])).toEqual([['map.png', tinyPng.length]]);
  });

  it('answers failChannel errors, which discord.js raises as DiscordAPIError with that code', async () => {
    const { s, textChannel, channel } = await setUp();
    for (const [status, code] of [
      [404, 10003],
      [403, 50001],
      [403, 50013],
    ] as const) {
      s.failChannel(channel.id, { status, code });
      const error: unknown = await textChannel.send('hello').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DiscordAPIError);
      expect(error).toMatchObject({ status, code });
    }
    s.failChannel(channel.id, undefined);
    await expect(textChannel.send('hello')).resolves.toMatchObject({ content: 'hello' });
  });

  it('enforces the bot permissions set for a channel', async () => {
    const { s, guild, channel, textChannel } = await setUp();
    s.setBotPermissions(guild.id, channel.id, PermissionFlagsBits.ViewChannel);
    await expect(textChannel.send('hi')).rejects.toMatchObject({ code: 50013 });
    s.setBotPermissions(
      guild.id,
      channel.id,
      PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages,
    );
    await expect(textChannel.send({ files: [{ attachment: tinyPng, name: 'a.png' }] })).rejects.toMatchObject(
      { code: 50013 },
    );
    s.setBotPermissions(guild.id, channel.id, 0n);
    await expect(textChannel.send('hi')).rejects.toMatchObject({ code: 50001 });
  });

  it('opens a DM channel and sends to a user', async () => {
    const { s, c } = await setUp();
    const owner = await c.users.fetch('300000000000000001');
    const sent = await owner.send('your clan was attacked');
    const [record] = s.messages(sent.channelId);
    expect(record).toMatchObject({ guildId: null, content: 'your clan was attacked', kind: 'channel' });
  });

  it('still serves everything with added latency', async () => {
    const { textChannel } = await setUp({ latencyMs: 30 });
    await expect(textChannel.send('slow but there')).resolves.toMatchObject({ content: 'slow but there' });
  });

  it('closes without waiting for a request that is still in its latency', async () => {
    const s = await startDiscordStandin({ latencyMs: 60_000 });
    standin = s;
    const inFlight = fetch(`${s.restUrl}/v10/gateway`).then(
      () => 'answered',
      () => 'cut',
    );
    await s.until(() => s.requests().length === 1, 'the request arrived');
    await s.close();
    expect(await inFlight).toBe('cut');
  });

  it('refuses an empty message with 50006', async () => {
    const { textChannel } = await setUp();
    await expect(textChannel.send({ content: '  ' })).rejects.toMatchObject({ code: 50006, status: 400 });
  });
});

describe('faults and rate limits', () => {
  it('429s a burst over the global limit, and discord.js still delivers every message', async () => {
    const { s, c, textChannel, channel } = await setUp({ globalRateLimit: { perSecond: 4 } });
    let rateLimited = 0;
    c.rest.on(RESTEvents.RateLimited, () => (rateLimited += 1));
    const sent = await Promise.all(Array.from({ length: 10 }, (_, i) => textChannel.send(`kill #${i}`)));
    expect(sent).toHaveLength(10);
    expect(
      s
        .messages(channel.id)
        .map((m) => m.content)
        .sort(),
    ).toEqual(Array.from({ length: 10 }, (_, i) => `kill #${i}`).sort());
    const posts = s
      .requests()
      .filter((r) => r.method === 'POST' && r.path === `/channels/${channel.id}/messages`);
    const refused = posts.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(posts.filter((r) => r.status === 200)).toHaveLength(10);
    expect(rateLimited).toBeGreaterThan(0);
  });

  it('answers 429 like Discord: Retry-After, X-RateLimit-Global and a JSON retry_after', async () => {
    const s = await startDiscordStandin({ globalRateLimit: { perSecond: 1 } });
    standin = s;
    const headers = { Authorization: `Bot ${s.token}` };
    expect((await fetch(`${s.restUrl}/v10/users/@me`, { headers })).status).toBe(200);
    const limited = await fetch(`${s.restUrl}/v10/users/@me`, { headers });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-global')).toBe('true');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = (await limited.json()) as { retry_after: number; global: boolean };
    expect(body.global).toBe(true);
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(1);
  });

  it('fails the next matching requests, which discord.js retries (5xx and connection resets)', async () => {
    const { s, textChannel } = await setUp();
    s.failNext({ method: 'POST', path: /^\/channels\/\d+\/messages$/ }, 503, 2);
    s.failNext({ method: 'POST', path: /^\/channels\/\d+\/messages$/ }, 0);
    await expect(textChannel.send('eventually')).resolves.toMatchObject({ content: 'eventually' });
    const statuses = s
      .requests()
      .filter((r) => r.method === 'POST')
      .map((r) => r.status);
    expect(statuses).toEqual([503, 503, 0, 200]);
    s.failNext({ path: /messages/ }, 500, 4);
    await expect(textChannel.send('never')).rejects.toMatchObject({ status: 500 });
  });

  it('matches faults against the decoded path, as the interaction webhook routes are written', async () => {
    const { s } = await setUp();
    s.failNext({ method: 'PATCH', path: /^\/webhooks\/\d+\/[^/]+\/messages\/@original$/ }, 500);
    const edit = () =>
      fetch(`${s.restUrl}/v10/webhooks/${s.applicationId}/some-token/messages/%40original`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ content: 'x' }),
      });
    expect((await edit()).status).toBe(500);
    expect((await edit()).status).not.toBe(500);
    const edits = s.requests().filter((r) => r.method === 'PATCH');
    expect(edits.map((r) => r.path)).toEqual([
      `/webhooks/${s.applicationId}/:token/messages/@original`,
      `/webhooks/${s.applicationId}/:token/messages/@original`,
    ]);
  });
});

describe('REST basics', () => {
  it('answers unknown routes 404, wrong methods 405 and bad tokens 401, with Discord error bodies', async () => {
    const s = await startDiscordStandin();
    standin = s;
    const auth = { Authorization: `Bot ${s.token}` };
    const unknown = await fetch(`${s.restUrl}/v10/nothing/here`, { headers: auth });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: '404: Not Found', code: 0 });
    const wrongMethod = await fetch(`${s.restUrl}/v10/users/@me`, { method: 'DELETE', headers: auth });
    expect(wrongMethod.status).toBe(405);
    const noToken = await fetch(`${s.restUrl}/v10/users/@me`);
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toEqual({ message: '401: Unauthorized', code: 0 });
    const wrongToken = await fetch(`${s.restUrl}/v10/users/@me`, { headers: { Authorization: 'Bot nope' } });
    expect(wrongToken.status).toBe(401);
    const me = (await (await fetch(`${s.restUrl}/v10/users/@me`, { headers: auth })).json()) as {
      id: string;
      bot: boolean;
    };
    expect(me).toMatchObject({ id: s.botUserId, bot: true });
    const app = (await (await fetch(`${s.restUrl}/v10/applications/@me`, { headers: auth })).json()) as {
      id: string;
    };
    expect(app.id).toBe(s.applicationId);
  });

  it('never records the bot token or interaction tokens', async () => {
    const { s, c, guild } = await setUp();
    c.on(Events.InteractionCreate, (interaction) => {
      if (interaction.isChatInputCommand())
        void interaction.deferReply().then(() => interaction.editReply('done'));
    });
    const pending = s.invokeCommand({ name: 'x', guildId: guild.id });
    await pending.final();
    const log = JSON.stringify(s.requests());
    expect(log).not.toContain(s.token);
    expect(log).not.toContain(pending.token);
    expect(s.requests().map((r) => r.path)).toContain(`/interactions/${pending.id}/:token/callback`);
    expect(s.requests().map((r) => r.path)).toContain(
      `/webhooks/${s.applicationId}/:token/messages/@original`,
    );
  });
});

describe('application commands', () => {
  it('stores bulk overwrites of global and guild commands and keeps ids across overwrites', async () => {
    const { s, c, guild } = await setUp();
    const definition: RESTPostAPIChatInputApplicationCommandsJSONBody = {
      name: 'player',
      description: 'Show a player',
      name_localizations: { de: 'spieler' },
      options: [
        {
          name: 'name',
          description: 'Player name',
          type: ApplicationCommandOptionType.String,
          required: true,
        },
      ],
    };
    const first = await c.application!.commands.set([definition]);
    const again = await c.application!.commands.set([
      definition,
      { name: 'clan', description: 'Show a clan' },
    ]);
    expect(again.find((cmd) => cmd.name === 'player')?.id).toBe(first.first()?.id);
    expect(s.commands.global().map((cmd) => cmd.name)).toEqual(['player', 'clan']);
    expect(s.commands.global()[0]).toMatchObject({
      name_localizations: { de: 'spieler' },
      application_id: s.applicationId,
    });
    await c.application!.commands.set([{ name: 'deploy-test', description: 'Only here' }], guild.id);
    expect(s.commands.guild(guild.id).map((cmd) => [cmd.name, cmd.guild_id])).toEqual([
      ['deploy-test', guild.id],
    ]);
  });

  it('rejects names and descriptions Discord rejects, with 50035 and the failing field', async () => {
    const { c } = await setUp();
    const error: unknown = await c
      .application!.commands.set([
        { name: 'Player', description: 'Upper case name' },
        { name: 'ok', description: 'x'.repeat(101) },
        { name: 'loc', description: 'Bad locale', name_localizations: { xx: 'nope' } as never },
      ])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiscordAPIError);
    expect(error).toMatchObject({ code: 50035, status: 400 });
    const message = (error as Error).message;
    expect(message).toContain('0.name[APPLICATION_COMMAND_INVALID_NAME]');
    expect(message).toContain('1.description[BASE_TYPE_BAD_LENGTH]');
    expect(message).toContain('2.name_localizations.xx[LOCALE_INVALID]');
  });

  it('gives an invoked command the id it was registered with', async () => {
    const { s, c, guild } = await setUp();
    const [registered] = (
      await c.application!.commands.set([{ name: 'ping', description: 'Ping' }])
    ).values();
    let commandId: string | undefined;
    c.on(Events.InteractionCreate, (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      commandId = interaction.commandId;
      void interaction.reply('pong');
    });
    await s.invokeCommand({ name: 'ping', guildId: guild.id }).final();
    expect(commandId).toBe(registered?.id);
  });
});
