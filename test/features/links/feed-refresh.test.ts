import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TierClient } from '../../../src/api/client.ts';
import { NotFoundError } from '../../../src/api/errors.ts';
import type { PlayerProfile } from '../../../src/api/schemas/index.ts';
import { openRepositories } from '../../../src/announcements/repositories.ts';
import { openDatabase, type Database } from '../../../src/db/index.ts';
import type { RefreshHook } from '../../../src/players/followed.ts';
import { accountLinks } from '../../../src/players/accounts.ts';
import { createStore, type Store } from '../../../src/store/index.ts';
import { playersFeedFor } from '../../support/players-feed.ts';
import { ManualClock } from '../../support/clock.ts';

/**
 * The players feed tells the links what each background refresh of a linked player found: the profile
 * and the name it was read under, or that no player has the name any more (renamed or gone).
 */
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
let db: Database;
let store: Store;
const clock = new ManualClock(NOW);

beforeEach(async () => {
  db = await openDatabase('sqlite://:memory:');
  store = await createStore('memory://', { purgeIntervalMs: 0 });
});
afterEach(async () => {
  await store.close();
  await db.close();
});

function feedWith(api: TierClient, hook: RefreshHook) {
  return playersFeedFor({ api, db, repos: openRepositories(db, store), clock, onRefreshed: hook });
}

const run = () => ({
  subscriptions: [],
  signal: new AbortController().signal,
  deliver: () => Promise.resolve(),
  spreadMs: 15_000,
});

describe('the linked players refresh', () => {
  it('hands each found profile with the name it was read under, and each name no longer found', async () => {
    await accountLinks({ db }).set('u1', { playerName: 'Found', playerId: 1, linkedAt: NOW });
    await accountLinks({ db }).set('u2', { playerName: 'Gone', playerId: 2, linkedAt: NOW });
    const api = {
      call(name: string, params: { playerName: string }) {
        if (name !== 'player') return Promise.reject(new Error(`unexpected ${name}`));
        return params.playerName === 'Found'
          ? Promise.resolve({ player_id: 1, player_name: 'Found', level: 1, clan: '', ranked: [] })
          : Promise.reject(new NotFoundError('no such player', 'player'));
      },
    } as unknown as TierClient;
    const found: Array<[number, string | undefined]> = [];
    const missing: string[] = [];
    const hook = Object.assign(
      (profile: PlayerProfile, requested?: string) => {
        found.push([profile.player_id, requested]);
        return Promise.resolve();
      },
      {
        missing: (name: string) => {
          missing.push(name);
          return Promise.resolve();
        },
      },
    );
    await feedWith(api, hook).poll(run());
    expect(found).toEqual([[1, 'Found']]);
    expect(missing).toEqual(['Gone']);
  });
});
