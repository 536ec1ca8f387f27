import { randomBytes } from 'node:crypto';
import { ApplicationCommandOptionType } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KpdKeyRecords, KpdKeyRepository, type StoredKpdKey } from '../../src/features/kpd/keys.ts';
import { MANAGE_GUILD, startHarness, type Harness } from '../support/secrets.ts';

/** `/kpd` through the real bot, the Discord stand-in and the sandbox. */
const MOD = '310000000000000001';
const mod = { userId: MOD, permissions: MANAGE_GUILD };

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => h.close());

const description = (message: { embeds: Array<{ description?: string }> }) =>
  message.embeds[0]?.description ?? '';

function records() {
  return new KpdKeyRecords(h.bot.services.db);
}

describe('/kpd', () => {
  it('is a guild command that needs Manage Server by default', () => {
    const json = h.bot.commands.find((command) => command.data.name === 'kpd')?.json;
    expect(json?.default_member_permissions).toBe(String(MANAGE_GUILD));
    expect(json?.contexts).toEqual([0]);
    expect(json?.integration_types).toEqual([0]);
  });

  it('checks Manage Server again when the modal comes back', async () => {
    const opened = h.command('kpd', 'link', {}, mod);
    const shown = await opened.response();
    expect(shown.type).toBe(9);
    const customId = (shown.data as { custom_id: string }).custom_id;
    const reply = await h.standin
      .submitModal(customId, { secret: h.sandbox.keys.kpd }, { from: opened, memberPermissions: 0n })
      .final();
    expect(description(reply)).toContain('Manage Server');
    expect(await records().has(h.guild.id)).toBe(false);
  });

  it('opens a modal whose text input takes the key, with the title and label of the reader language', async () => {
    const opened = h.standin.invokeCommand({
      name: 'kpd',
      options: [{ name: 'link', type: ApplicationCommandOptionType.Subcommand, options: [] }],
      guildId: h.guild.id,
      user: { id: MOD },
      memberPermissions: MANAGE_GUILD,
      locale: 'fr',
    });
    const modal = (await opened.response()).data as {
      title: string;
      components: Array<{ label: string; component: { custom_id: string; max_length: number } }>;
    };
    expect(modal.title).toBe("Lier une clé d'API KPD");
    expect(modal.components[0]?.component).toMatchObject({ custom_id: 'secret', max_length: 256 });
  });

  it('says the key is not linked, then reads calls once it is', async () => {
    const before = await h.command('kpd', 'calls', {}, { ...mod, guildId: h.otherGuild.id }).final();
    expect(description(before)).toContain('no linked KPD key');
    await h.throughModal('kpd', 'link', h.sandbox.keys.kpd, {}, { ...mod, guildId: h.otherGuild.id });
    const after = await h.command('kpd', 'calls', {}, { ...mod, guildId: h.otherGuild.id }).final();
    expect(after.embeds[0]?.title).toBe('Latest KPD calls');
  });

  it('tells the moderators to relink when the stored key stops working (403) or was sealed under another secret', async () => {
    const { secret } = h.bot.services.config;
    const repository = new KpdKeyRepository(records(), secret);
    await repository.save(h.guild.id, h.sandbox.keys.noScopes, MOD, Date.now());
    const refused = await h.command('kpd', 'calls', {}, mod).final();
    expect(description(refused)).toContain('refused this server');
    expect(refused.flags & 64).toBe(64);

    const previous = new KpdKeyRepository(records(), { key: randomBytes(32), keyId: 'oldkey01' });
    await previous.save(h.guild.id, h.sandbox.keys.kpd, MOD, Date.now());
    const rotated = await h.command('kpd', 'calls', {}, mod).final();
    expect(description(rotated)).toContain('no longer has');

    const record = (await records().get(h.guild.id)) as StoredKpdKey | undefined;
    await records().set(h.guild.id, { ...record!, kid: secret.keyId!, ct: record!.ct.slice(4) });
    const damaged = await h.command('kpd', 'calls', {}, mod).final();
    expect(description(damaged)).toContain('cannot be read');
  });

  it('refuses the calls and their page buttons to a member without Manage Server, using no key', async () => {
    const guildId = h.otherGuild.id;
    await h.throughModal('kpd', 'link', h.sandbox.keys.kpd, {}, { ...mod, guildId });
    const member = { user: { id: '310000000000000002' }, memberPermissions: 0n };
    const kpdReads = () =>
      h.sandbox.requests.entries().filter((entry) => entry.path.includes('/kpd/latest-calls')).length;
    const before = kpdReads();

    const refused = await h
      .command('kpd', 'calls', {}, { userId: member.user.id, permissions: 0n, guildId })
      .final();
    expect(description(refused)).toContain('Manage Server');
    expect(refused.flags & 64).toBe(64);
    expect(refused.embeds[0]?.fields ?? []).toEqual([]);
    expect(kpdReads()).toBe(before);

    const calls = await h.command('kpd', 'calls', {}, { ...mod, guildId }).final();
    const next = (calls.components[0] as { components: Array<{ custom_id: string }> }).components[2]!
      .custom_id;
    const beforeClick = kpdReads();
    const clicked = await h.standin.clickButton(calls, next, member).final();
    expect(description(clicked)).toContain('Manage Server');
    expect(clicked.embeds[0]?.fields ?? []).toEqual([]);
    expect(kpdReads()).toBe(beforeClick);
  });

  it('refuses outside a guild', async () => {
    const reply = await h.command('kpd', 'calls', {}, { userId: MOD, guildId: null }).final();
    expect(description(reply)).toContain('belong to a server');
  });
});

describe('/kpd without SECRET_KEY', () => {
  let bare: Harness;
  beforeAll(async () => {
    bare = await startHarness({ withSecret: false });
  }, 60_000);
  afterAll(async () => bare.close());

  it('refuses to link, without showing the modal, and says what the operator must set', async () => {
    const pending = bare.command('kpd', 'link', {}, mod);
    expect((await pending.response()).type).toBe(4);
    const reply = await pending.final();
    expect(description(reply)).toContain('`SECRET_KEY`');
    expect(description(reply)).toContain('`SECRET_KEY_FILE`');
    expect(reply.flags & 64).toBe(64);
    const calls = await bare.command('kpd', 'calls', {}, mod).final();
    expect(description(calls)).toContain('`SECRET_KEY`');
  });
});
