import { startFlood } from './flood.ts';
import { processKilledMidSyncRow, storeStoppedMidSyncRow } from './roles-scenarios.ts';
import {
  inflateArrays,
  padReplies,
  poisonPriceHistory,
  poisonTurfDay,
  renameEverywhere,
} from './rewrites.ts';
import type { Scenario, ScenarioContext } from './model.ts';
import type { Rewrite } from './upstream-proxy.ts';

/** The crafted text of issue 8: i18next's nesting pattern, unclosed, followed by 30 letters. */
export const HOSTILE_TEXT = `$t(${'a'.repeat(30)}`;

const FLOOD_SOCKETS = 2_000;
const FLOOD_MAX_OPENS = 20_000;

const baseline: Scenario = { name: 'baseline (no fault)', store: 'sqlite' };

const hostileText: Scenario = {
  name: `hostile text ('$t(' + 30 letters): /link name, clan and featured map`,
  store: 'sqlite',
  prepare({ sandbox, upstream, maps, showMapAs }) {
    const map = maps[1];
    const names = new Map([[sandbox.world.samples.clan, HOSTILE_TEXT]]);
    if (map) {
      names.set(map.name, HOSTILE_TEXT);
      showMapAs(map.id, HOSTILE_TEXT);
    }
    upstream.rewrite = renameEverywhere(names);
  },
  commands(standard, sandbox) {
    return standard.map((spec, i) => {
      if (i === 1)
        return { ...spec, command: 'clan', sub: 'profile', values: { name: sandbox.world.samples.clan } };
      if (i === 5) return { ...spec, values: { player: HOSTILE_TEXT } };
      if (i === 11) return { ...spec, values: { player: HOSTILE_TEXT }, guildId: null };
      return spec;
    });
  },
};

const redisPaused: Scenario = {
  name: 'Redis paused (SIGSTOP 5 s)',
  store: 'redis',
  fault({ redis }) {
    redis?.pause();
    return () => redis?.resume();
  },
};

const redisRefusing: Scenario = {
  name: 'Redis refusing connections (5 s)',
  store: 'redis',
  async fault({ gate }) {
    await gate?.shut();
    return () => gate?.open();
  },
};

const sqliteReadOnly: Scenario = {
  name: 'SQLite read-only (writes fail 5 s)',
  store: 'sqlite',
  fault({ bot }) {
    bot.send({ type: 'store-readonly', on: true });
    return () => bot.send({ type: 'store-readonly', on: false });
  },
};

const rewriting =
  (rewrite: () => Rewrite) =>
  ({ upstream }: ScenarioContext) => {
    upstream.rewrite = rewrite();
    return () => {
      upstream.rewrite = undefined;
    };
  };

const hugeArrays: Scenario = {
  name: 'upstream arrays of 10,000 items',
  store: 'sqlite',
  fault: rewriting(() => inflateArrays(10_000)),
};

const hugeBodies: Scenario = {
  name: 'upstream 50 MB bodies (6 replies)',
  store: 'sqlite',
  fault: rewriting(() => padReplies(50 * 1024 * 1024, 6)),
};

const poisonedTurf: Scenario = {
  name: 'poisoned turf day (1e13)',
  store: 'sqlite',
  turf: true,
  pollIntervalMs: 2_000,
  fault: rewriting(poisonTurfDay),
};

/** The windows of the poisoned `/market skin` commands: each a reply (and a chart) of its own. */
const POISONED_DAYS = [30, 7, 90, 14];

/**
 * Issue 18, finding 1: every `/market skin` reply holds a day of 1e300 KR × 1e9 sales and days of ±1e308 KR
 * for the whole run. A third of the commands ask for that skin's chart, a third for `/lobbies` (the command
 * another user got no answer to when the chart killed the bot); the bot must stay up and answer all.
 */
const poisonedPriceHistory: Scenario = {
  name: 'poisoned price history (1e300 KR × 1e9 sales, ±1e308): /market skin, /lobbies',
  store: 'sqlite',
  prepare({ upstream }) {
    upstream.rewrite = poisonPriceHistory();
  },
  commands(standard, sandbox) {
    return standard.map((spec, i) => {
      if (i % 3 === 0) {
        const days = POISONED_DAYS[(i / 3) % POISONED_DAYS.length] ?? 30;
        const skin = sandbox.world.samples.skinIndex;
        return { command: 'market', sub: 'skin', values: { skin, days }, userId: spec.userId };
      }
      if (i % 3 === 1) return { command: 'lobbies', values: {}, userId: spec.userId };
      return spec;
    });
  },
};

const discordErrors: Scenario = {
  name: 'Discord 500 on 12 edits, 12 sends',
  store: 'sqlite',
  fault({ discord }) {
    discord.failNext(
      { method: 'PATCH', path: /^\/webhooks\/\d+\/[^/]+\/messages\/(@|%40)original$/ },
      500,
      12,
    );
    discord.failNext({ method: 'POST', path: /^\/channels\/\d+\/messages$/ }, 500, 12);
    return undefined;
  },
};

const connectionFlood: Scenario = {
  name: `connection flood: ${FLOOD_SOCKETS.toLocaleString('en-US')} sockets on the webhook port`,
  store: 'sqlite',
  fault({ webhookPort, note }) {
    const flood = startFlood(webhookPort, FLOOD_SOCKETS, FLOOD_MAX_OPENS);
    return () => {
      const { opened, held, refused } = flood.stats();
      note(`flood: ${opened} opened, ${held} held, ${refused} errors`);
      flood.stop();
    };
  },
};

export const SCENARIOS: readonly Scenario[] = [
  baseline,
  hostileText,
  redisPaused,
  redisRefusing,
  sqliteReadOnly,
  hugeArrays,
  hugeBodies,
  poisonedTurf,
  poisonedPriceHistory,
  discordErrors,
  connectionFlood,
  storeStoppedMidSyncRow,
  processKilledMidSyncRow,
];
