import { describe, expect, it } from 'vitest';
import { command as playerCommand } from '../../../commands/player.ts';
import {
  commandOptions,
  routeCommands,
  useWorldPerTest,
  type OptionValue,
} from '../../support/announcements.ts';

/**
 * The first day of a new install: no snapshot kept of anyone. `/player history`, `/player compare` and the
 * profile's "since" lines draw on what the game already has (the ranked match history), and say which of
 * their numbers were measured and which come from the match history.
 */
routeCommands(playerCommand);

const fixture = useWorldPerTest();
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

function run(sub: string, values: Record<string, OptionValue>) {
  const { world } = fixture;
  return world.discord
    .invokeCommand({
      name: 'player',
      guildId: world.guildId,
      options: commandOptions('player', sub, values),
      user: { id: '300000000000000001', username: 'user001' },
    })
    .final();
}

async function snapshotCount(): Promise<number> {
  const row = await fixture.world.db.kysely
    .selectFrom('player_snapshots')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

/** A second ranked player of the current season, other than the sample one. */
function otherRankedPlayer(): string {
  const { world } = fixture.world.sandbox;
  const season = Math.max(...world.ranked.map((r) => r.season));
  const found = world.ranked.find(
    (r) => r.season === season && r.matches >= 10 && r.playerName !== world.samples.rankedPlayer,
  );
  return found?.playerName ?? '';
}

describe('a first day with no snapshots', () => {
  it('/player history draws the K/D per ranked match beside the one measured point, and says which is which', async () => {
    await fixture.start({ commands: true });
    const name = fixture.world.sandbox.world.samples.rankedPlayer;
    expect(await snapshotCount()).toBe(0);
    const reply = await run('history', { name, stat: 'kd' });
    const embed = reply.embeds[0];
    expect(embed?.title).toBe(`K/D of ${name}, last 30 days`);
    expect(reply.attachments[0]?.filename).toBe('history.png');
    expect(reply.attachments[0]?.bytes.subarray(0, 4)).toEqual(PNG);
    expect(embed?.description).toMatch(/^Solid: what the bot measured .* Dashed: one value per ranked match/);
    expect(embed?.footer?.text).toMatch(
      /^1 point measured \(snapshots\) · \d+ ranked match(es)? from the match history$/,
    );
    const fields = Object.fromEntries((embed?.fields ?? []).map((f) => [f.name, f.value]));
    expect(fields['Now']).toMatch(/^\d+\.\d\d$/);
    expect(fields['Per ranked match (match history)']).toMatch(
      /^\d+ match(es)? · \d+ W \/ \d+ L · K\/D \d+\.\d\d$/,
    );
    // The image's description names both series.
    const alt = reply.attachments[0]?.description ?? '';
    expect(alt).toContain('Measured (snapshots):');
    expect(alt).toContain('Per ranked match (match history):');
    expect(alt).toMatch(/Ranked results: \d+ W, \d+ L, \d+ D/);
  });

  it('/player history of a count draws the matches instead of one lone total, and a stat no match has as one point', async () => {
    await fixture.start({ commands: true });
    const name = fixture.world.sandbox.world.samples.rankedPlayer;
    const kills = await run('history', { name, stat: 'kills' });
    const alt = kills.attachments[0]?.description ?? '';
    expect(alt).toContain('Per ranked match (match history):');
    expect(alt).not.toContain('Measured (snapshots):');
    expect(kills.embeds[0]?.footer?.text).toMatch(/^1 point measured/);
    const level = await run('history', { name, stat: 'level' });
    expect(level.attachments[0]?.filename).toBe('history.png');
    expect(level.embeds[0]?.description).toMatch(/^Measured by the bot: a point each time/);
    expect(level.embeds[0]?.footer?.text).toBe('1 point measured (snapshots)');
  });

  it('/player compare overlays both players’ K/D per ranked match, saying it comes from the match history', async () => {
    await fixture.start({ commands: true });
    const a = fixture.world.sandbox.world.samples.rankedPlayer;
    const b = otherRankedPlayer();
    expect(b).not.toBe('');
    const reply = await run('compare', { a, b });
    expect(reply.attachments[0]?.filename).toBe('compare.png');
    expect(reply.embeds[0]?.footer?.text).toBe(
      'Not enough measured points yet: K/D per ranked match, from each player’s match history (dashed).',
    );
  });

  it('/player profile shows the ranked matches of the last day or week from the match history', async () => {
    await fixture.start({ commands: true });
    const name = fixture.world.sandbox.world.samples.rankedPlayer;
    const reply = await run('profile', { name });
    const fields = reply.embeds[0]?.fields ?? [];
    const ranked = fields.filter(
      (f) => f.name === 'Ranked, last 24 hours' || f.name === 'Ranked, last 7 days',
    );
    expect(ranked.length).toBeGreaterThan(0);
    for (const field of ranked) expect(field.value).toMatch(/^\d+ match(es)? · \d+ W \/ \d+ L · K\/D /);
  });
});
