import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/db/index.ts';
import { accountLinks } from '../../../src/players/accounts.ts';
import { rolesFollowRefresh } from '../../../src/features/roles/follow-account.ts';
import { postgresDatabase, postgresRequired, postgresUp } from '../../support/postgres.ts';
import { startHarness, type Harness } from '../../support/secrets.ts';

/**
 * One game account verifies one Discord user: a second verification of the same player moves the link
 * (the newest proof of ownership wins), `/server leaderboard` lists each player once, two verifications
 * at once still leave one link, and `/link status` shows a link that gives no roles any more. Through the
 * real bot, the Discord stand-in and the sandbox.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => h.close());

const description = (message: { embeds: Array<{ description?: string }> }) =>
  message.embeds[0]?.description ?? '';
const codeIn = (text: string) => /KF-[A-Z0-9]{6}/.exec(text)?.[0];

async function verifyAs(userId: string, player: string): Promise<string> {
  const started = await h.command('link', 'name', { player }, { userId }).final();
  const code = codeIn(description(started));
  if (code === undefined) throw new Error(`no code in ${description(started)}`);
  h.post(player, code);
  return description(await h.command('link', 'verify', {}, { userId }).final());
}

describe('one game account, one Discord user', () => {
  it('moves the link to the newest verification, says so, and the leaderboard lists the player once', async () => {
    const player = h.sandbox.world.samples.player;
    const first = '330000000000000001';
    const second = '330000000000000002';
    expect(await verifyAs(first, player)).toContain(`You are now linked to **${player}**`);
    const moved = await verifyAs(second, player);
    expect(moved).toContain('This game account was linked to another Discord account');
    expect(moved).toContain('that link has been moved to you');

    const links = accountLinks(h.bot.services);
    expect(await links.get(first)).toBeUndefined();
    expect(await links.get(second)).toMatchObject({ playerName: player });
    const rows = await h.bot.services.db.kysely
      .selectFrom('account_links')
      .select('user_id')
      .where('player_name', '=', player)
      .execute();
    expect(rows).toEqual([{ user_id: second }]);
    const status = await h.command('link', 'status', {}, { userId: first }).final();
    expect(description(status)).toContain('not linked');

    const board = await h.command('server', 'leaderboard', { stat: 'level' }, { userId: second }).final();
    const lines = description(board)
      .split('\n')
      .filter((line) => line.includes(player));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`<@${second}>`);
  });

  it('/link status shows a suspended link and asks to verify again', async () => {
    const player = h.sandbox.world.samples.verifiedPlayer;
    const userId = '330000000000000003';
    await verifyAs(userId, player);
    const linked = await h.command('link', 'status', {}, { userId }).final();
    expect(description(linked)).toContain(`You are linked to **${player}**`);
    expect(description(linked)).not.toContain('different player');
    const board = () => h.command('server', 'leaderboard', { stat: 'level' }, { userId }).final();
    expect(description(await board())).toContain(`<@${userId}>`);

    // A refresh finds another player (another id) under the linked name.
    const { services } = h.bot;
    const other = { player_id: 987_654_321, player_name: player, level: 1, clan: '', ranked: [] };
    await rolesFollowRefresh(services, h.bot.client.rest)(other, player);
    const suspended = await h.command('link', 'status', {}, { userId }).final();
    expect(description(suspended)).toContain(`A different player now has the name **${player}**`);
    expect(description(suspended)).toContain('verify again with `/link name` and `/link verify`');
    // Nor does the server's leaderboard rank the user under another player's numbers.
    expect(description(await board())).not.toContain(`<@${userId}>`);

    // Verifying again lifts it.
    await verifyAs(userId, player);
    const again = await h.command('link', 'status', {}, { userId }).final();
    expect(description(again)).not.toContain('different player');
  });
});

const backends: Array<{
  name: string;
  available: boolean;
  open: () => Promise<Database & { close(): Promise<void> }>;
}> = [
  {
    name: 'SQLite',
    available: true,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'killfeed-race-'));
      const db = await openDatabase(`sqlite://${join(dir, 'killfeed.sqlite')}`);
      return {
        ...db,
        async close() {
          await db.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    available: postgresUp || postgresRequired,
    async open() {
      const db = await postgresDatabase('links_race', 10);
      return { ...db, close: () => db.drop() };
    },
  },
];

for (const backend of backends) {
  describe.runIf(backend.available)(`verifications at once on ${backend.name}`, () => {
    it('leave exactly one link to the player', async () => {
      const db = await backend.open();
      try {
        const links = accountLinks({ db });
        const users = Array.from({ length: 6 }, (_, i) => `34000000000000000${i}`);
        const results = await Promise.allSettled(
          users.map((userId, i) =>
            links.set(userId, { playerName: 'VerifiedPro', playerId: 77, linkedAt: 1_000 + i }),
          ),
        );
        expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
        const rows = await db.kysely.selectFrom('account_links').select(['user_id', 'player_id']).execute();
        expect(rows).toHaveLength(1);
        expect(rows[0]?.player_id).toBe(77);
      } finally {
        await db.close();
      }
    });
  });
}
