import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TierClient } from '../../../src/api/client.ts';
import { openDatabase, type Database } from '../../../src/db/index.ts';
import { createStore, type Store } from '../../../src/store/index.ts';
import { openRepositories, type Repositories } from '../../../src/announcements/repositories.ts';
import { PlayersFeed } from '../../../src/features/tracking/feed.ts';
import type { Subscription } from '../../../src/announcements/model.ts';
import { playersFeedFor } from '../../support/players-feed.ts';
import { ManualClock } from '../../support/clock.ts';

/** The players feed against a scripted game API: what each look at a player finds. */
const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
let db: Database;
let store: Store;
let repos: Repositories;
let clock: ManualClock;

interface Script {
  wins: number;
  matches: Array<{ match_id: string; victory: number; region: number }>;
}

function fakeApi(script: Script) {
  const calls: string[] = [];
  const api = {
    call(name: string) {
      calls.push(name);
      if (name === 'player')
        return Promise.resolve({
          player_id: 5,
          player_name: 'Ann',
          level: 3,
          clan: '',
          ranked: [{ region: 3, mmr: 1500 + script.wins, wins: script.wins, losses: 0 }],
        });
      if (name === 'playerMatches') return Promise.resolve({ matches: script.matches });
      if (name === 'officialMaps') return Promise.resolve([]);
      return Promise.reject(new Error(`unexpected ${name}`));
    },
  } as unknown as TierClient;
  return { api, calls };
}

const subscription: Subscription = {
  id: 'trk001',
  guildId: 'g1',
  channelId: 'c1',
  kind: 'track',
  options: { playerId: 5, playerName: 'Ann' },
  locale: 'en-US',
  createdBy: 'u1',
  createdAt: NOW - 1_000,
  since: NOW - 1_000,
  state: { status: 'active' },
};

beforeEach(async () => {
  db = await openDatabase('sqlite://:memory:');
  store = await createStore('memory://', { purgeIntervalMs: 0 });
  repos = openRepositories(db, store);
  clock = new ManualClock(NOW);
});
afterEach(async () => {
  await store.close();
  await db.close();
});

function feedFor(api: TierClient) {
  return playersFeedFor({ api, db, repos, clock });
}

async function look(feed: PlayersFeed) {
  await feed.poll({
    subscriptions: [subscription],
    signal: new AbortController().signal,
    deliver: () => Promise.resolve(),
    spreadMs: 15_000,
  });
  await clock.advance(5 * 60_000);
}

async function matchKeys() {
  return (await repos.inbox.pending())
    .map((pending) => pending.event.key)
    .filter((key) => key.startsWith('track:m:'));
}

describe('the players feed', () => {
  it('announces nothing on the first look, then each new ranked match once, even one that ended between the two reads', async () => {
    const script: Script = { wins: 10, matches: [{ match_id: '9007199254740993', victory: 1, region: 3 }] };
    const { api, calls } = fakeApi(script);
    const feed = feedFor(api);
    await look(feed);
    expect(await repos.inbox.pending()).toEqual([]);
    // The first look also notes the newest match there is (what later looks count from).
    expect(calls).toEqual(['player', 'playerMatches']);

    // The profile counts one more match; by the time the page is read, a second one has ended too.
    script.wins = 11;
    script.matches = [
      { match_id: '9007199254740995', victory: 1, region: 3 },
      { match_id: '9007199254740994', victory: 0, region: 3 },
      ...script.matches,
    ];
    await look(feed);
    expect(await matchKeys()).toEqual(['track:m:5:9007199254740994', 'track:m:5:9007199254740995']);

    // The next look sees the second match in the profile: nothing new on the page, nothing repeated.
    script.wins = 12;
    await look(feed);
    expect(await matchKeys()).toHaveLength(2);

    // No change: one request, no event.
    calls.length = 0;
    await look(feed);
    expect(calls).toEqual(['player']);
  });
});
