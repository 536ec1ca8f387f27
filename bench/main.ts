import { benchInteractionLatency } from './bot.ts';
import { benchCard } from './card.ts';
import { benchCharts } from './charts.ts';
import { benchAlerts } from './alerts.ts';
import { benchClans } from './clans.ts';
import { benchCachedOverhead, benchSingleFlight, benchZipf } from './client.ts';
import { benchAutocomplete } from './autocomplete.ts';
import { benchFanout } from './fanout.ts';
import { benchFollow } from './follow.ts';
import { benchSharedLimits } from './limits.ts';
import { benchStartup } from './startup.ts';
import { benchStore } from './store.ts';
import { benchCycle } from './cycle.ts';
import { benchMemory } from './memory.ts';
import { benchRoles } from './roles.ts';
import { benchWarm } from './warm.ts';
import { benchOverload } from './overload.ts';
import {
  formatFigure,
  isJudged,
  LOOP_DELAY_GOAL_MS,
  loopDelayFigure,
  MEASURED_LOOP_DELAY,
  watchLoop,
  type SectionFigures,
} from './figures.ts';

/**
 * `npm run bench [-- name...]`: figures and ratios, printed beside their goals; nothing here asserts a
 * time. With names, only those sections run (`npm run bench -- card charts fanout`); without, all of
 * them. Sections run one after another so that they do not compete for the two cores. Each section's
 * longest event-loop delay is measured (perf_hooks.monitorEventLoopDelay) and judged against 50 ms: over
 * what the section measures when it reports MEASURED_LOOP_DELAY (`watchLoop`), its whole run otherwise.
 *
 * A new section is one line in SECTIONS: [name, title, run].
 */
type Section = readonly [name: string, title: string, run: () => Promise<SectionFigures>];

const SECTIONS: readonly Section[] = [
  ['single-flight', 'tier client: single flight', benchSingleFlight],
  ['zipf', 'tier client: Zipf workload at 60 requests a minute', benchZipf],
  ['cached-overhead', 'tier client: cached call overhead', benchCachedOverhead],
  ['limits', 'shared limits: cost of a take, and two processes under 60 a minute', benchSharedLimits],
  ['interaction', 'bot: interaction to reply', benchInteractionLatency],
  ['warm', 'bot: cached commands against a trivial one, same router, same run', benchWarm],
  ['charts', 'bot: charts', benchCharts],
  ['autocomplete', 'bot: autocomplete with the search endpoints slow (4 s)', benchAutocomplete],
  [
    'overload',
    'overload: 3× and 10× the key’s 60 a minute in one minute, queued for the token’s 15 minutes',
    benchOverload,
  ],
  ['card', 'bot: profile card', benchCard],
  [
    'fanout',
    'announcements: one event to 10,000 channels at Discord’s 50/s, commands alongside',
    benchFanout,
  ],
  ['store', 'data layer: subscriptions at 1k, 10k and 100k on SQLite and PostgreSQL', benchStore],
  [
    'cycle',
    'worker: every source on schedule with 10k subscriptions, 500 KPD servers, 10k fan-out',
    benchCycle,
  ],
  [
    'follow',
    'tracking: 1,000 players over 300 servers at 60 requests a minute, steady commands',
    benchFollow,
  ],
  [
    'alerts',
    'price alerts: requests a minute for N watched skins and M alerts (simulated hour)',
    benchAlerts,
  ],
  ['clans', 'clan log: requests a minute, interval kept for 10, 100, 500 clans (simulated 2 h)', benchClans],
  ['roles', 'roles: a sync of 1,000 linked members in one server through Discord’s role window', benchRoles],
  ['memory', 'shards: memory per 1,000 servers', benchMemory],
  ['startup', 'start-up: the bot compiled (node dist/) against its sources through tsx', benchStartup],
];

function chosen(names: readonly string[]): readonly Section[] {
  if (names.length === 0) return SECTIONS;
  const known = new Map(SECTIONS.map((section) => [section.at(0) as string, section]));
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    process.stderr.write(
      `unknown bench section(s): ${unknown.join(', ')}\nknown: ${[...known.keys()].join(', ')}\n`,
    );
    process.exit(2);
  }
  return names.map((name) => known.get(name) as Section);
}

const missed: string[] = [];
let worstDelay = { ms: 0, section: '' };
for (const [name, title, run] of chosen(process.argv.slice(2))) {
  const loop = watchLoop();
  const started = Date.now();
  const figures = await run();
  const wholeMs = await loop.stop();
  // Judged on what the section measured when it says; on its whole run (set-up included) otherwise.
  const measured = figures[MEASURED_LOOP_DELAY];
  const delayMs = measured !== undefined && isJudged(measured) ? Number(measured.value) : wholeMs;
  if (measured === undefined) figures['longest event-loop delay (ms)'] = loopDelayFigure(wholeMs);
  else figures['longest event-loop delay, set-up included (ms)'] = Number(wholeMs.toFixed(1));
  if (delayMs >= worstDelay.ms) worstDelay = { ms: delayMs, section: name };
  process.stdout.write(`\n== ${name}: ${title} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  for (const [label, figure] of Object.entries(figures)) {
    process.stdout.write(`${formatFigure(label, figure)}\n`);
    if (isJudged(figure) && !figure.met) missed.push(`${name}: ${label}`);
  }
}
process.stdout.write(
  `\n== worst event-loop delay of the sections run: ${worstDelay.ms.toFixed(1)} ms` +
    ` (${worstDelay.section || 'none'}) [goal ≤ ${LOOP_DELAY_GOAL_MS} ms: ${worstDelay.ms <= LOOP_DELAY_GOAL_MS ? 'met' : 'NOT MET'}]\n`,
);
if (missed.length > 0) process.stdout.write(`goals not met:\n${missed.map((m) => `  ${m}`).join('\n')}\n`);
