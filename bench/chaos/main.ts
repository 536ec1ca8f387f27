import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCommands } from '../../src/discord/loader.ts';
import { Translations } from '../../src/i18n/index.ts';
import { onPath } from './net.ts';
import { BOT_FD_LIMIT, TIMELINE, type Row } from './model.ts';
import { runScenario } from './run.ts';
import { SCENARIOS } from './scenarios.ts';
import { formatTable } from './table.ts';

/**
 * `npm run chaos`: the real bot, in a process of its own, between the game API sandbox and the Discord
 * stand-in, through one fault after another, each on a fresh stack; everything on 127.0.0.1 and stopped
 * at the end. Prints one row per fault. Figures, not assertions: nothing here fails the run.
 * `npm run chaos -- redis flood` runs only the faults whose names contain one of those words.
 */
const out = (text: string) => process.stdout.write(`${text}\n`);
const words = process.argv.slice(2).map((word) => word.toLowerCase());
const scenarios = SCENARIOS.filter(
  (scenario) => words.length === 0 || words.some((word) => scenario.name.toLowerCase().includes(word)),
);
const dir = await mkdtemp(join(tmpdir(), 'killfeed-chaos-'));
const redisServer = onPath('redis-server', process.env.PATH);
const commands = await loadCommands(new Translations(), {
  only: ['player', 'clan', 'map', 'link', 'subscribe', 'market', 'lobbies'],
});

out(
  `chaos run: ${scenarios.length} faults; each ${TIMELINE.commands} commands (one every ` +
    `${TIMELINE.commandEveryMs} ms), ${TIMELINE.publishAtMs.length} featured maps announced to ` +
    `${TIMELINE.announcementChannels} channels, fault on ${TIMELINE.faultOnMs / 1000}–` +
    `${TIMELINE.faultOffMs / 1000} s of an ${TIMELINE.windowMs / 1000} s window, then up to ` +
    `${TIMELINE.settleMs / 1000} s to settle. Bot process fd limit ${BOT_FD_LIMIT}.`,
);
const rows: Row[] = [];
for (const [index, scenario] of scenarios.entries()) {
  process.stdout.write(`[${index + 1}/${scenarios.length}] ${scenario.name} … `);
  if (scenario.store === 'redis' && redisServer === undefined) {
    rows.push({ name: scenario.name, notes: ['skipped: redis-server is not on PATH'] });
    out('skipped (no redis-server on PATH)');
    continue;
  }
  const row = await runScenario(scenario, { commands, dir, redisServer }, index + 1);
  rows.push(row);
  out(`${(row.seconds ?? 0).toFixed(1)} s${row.error === undefined ? '' : ` (error: ${row.error})`}`);
}
out('');
out(formatTable(rows));
out('');
out(
  'answered in time: first response accepted by the stand-in within 3 s · final reply: any final reply ' +
    'within 8 s (error replies counted in the notes) · posted once / lost / duplicated: (featured map, channel) ' +
    'pairs · max loop delay: the bot process, monitorEventLoopDelay over the window (≥: it was still ' +
    'blocked when killed) · peak RSS: the bot process.',
);
out(`bot logs: ${dir}`);
