import { benchInteractionLatency } from './bot.ts';
import { benchCard } from './card.ts';
import { benchCharts } from './charts.ts';
import { benchAlerts } from './alerts.ts';
import { benchClans } from './clans.ts';
import { benchCachedOverhead, benchSingleFlight, benchZipf, type Figures } from './client.ts';
import { benchAutocomplete } from './autocomplete.ts';
import { benchFanout } from './fanout.ts';
import { benchFollow } from './follow.ts';
import { benchSharedLimits } from './limits.ts';
import { benchStartup } from './startup.ts';
import { benchStore } from './store.ts';
import { benchCycle } from './cycle.ts';
import { benchMemory } from './memory.ts';
import { benchRoles } from './roles.ts';
import { benchOverload } from './overload.ts';

/**
 * `npm run bench`: figures and ratios, printed; nothing here asserts a time. Sections run one after
 * another so that they do not compete for the two cores.
 */
const sections: Array<[string, () => Promise<Figures>]> = [
  ['tier client: single flight', benchSingleFlight],
  ['tier client: Zipf workload at 60 requests a minute', benchZipf],
  ['tier client: cached call overhead', benchCachedOverhead],
  ['shared limits: cost of a take, and two processes under 60 a minute', benchSharedLimits],
  ['bot: interaction to reply', benchInteractionLatency],
  ['bot: charts', benchCharts],
  ['bot: autocomplete with the search endpoints slow (4 s)', benchAutocomplete],
  [
    'overload: 3× and 10× the key’s 60 a minute in one minute, queued for the token’s 15 minutes',
    benchOverload,
  ],
  ['bot: profile card', benchCard],
  ['announcements: one event fanned out to 1,000 channels at 50 requests a second', benchFanout],
  ['data layer: subscriptions at 1k, 10k and 100k on SQLite and PostgreSQL', benchStore],
  ['worker: every source on schedule with 10k subscriptions, 500 KPD servers and a 10k fan-out', benchCycle],
  ['tracking: 1,000 players over 300 servers at 60 requests a minute, with steady commands', benchFollow],
  ['price alerts: requests a minute for N watched skins and M alerts (simulated hour)', benchAlerts],
  [
    'clan log: requests a minute and the interval kept for 10, 100 and 500 clans followed (simulated 2 h)',
    benchClans,
  ],
  ['roles: a sync of 1,000 linked members in one server through Discord’s role window', benchRoles],
  ['shards: memory per 1,000 servers', benchMemory],
  ['start-up: the bot compiled (node dist/) against its sources through tsx', benchStartup],
];

for (const [title, run] of sections) {
  const started = Date.now();
  const figures = await run();
  process.stdout.write(`\n== ${title} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  for (const [label, value] of Object.entries(figures)) process.stdout.write(`  ${label}: ${value}\n`);
}
