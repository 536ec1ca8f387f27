import { join } from 'node:path';
import type { Row, Scenario, Shared } from './model.ts';
import { processKilledMidSync, storeStoppedMidSync, type LeftBehind } from './roles-left-behind.ts';

/**
 * The chaos run's role rows: a `/roles sync` of 100 members cut short, then the rule removed; what counts
 * is the members still holding its role (roles left behind, goal 0). No bot process: the sync runs in
 * the harness (store stopped) or in a child process of its own (killed).
 */
const MEMBERS = 100;

function fill(row: Row, result: LeftBehind): void {
  row.rolesLeftBehind = result.leftBehind;
  row.notes.push(`when cut: ${result.holders} holders on Discord, ${result.grantRows} grant rows`);
}

const databaseUrl = (shared: Shared, index: number) =>
  `sqlite://${join(shared.dir, `roles-${index}.sqlite`)}`;

export const storeStoppedMidSyncRow: Scenario = {
  name: 'store stopped mid-sync',
  store: 'sqlite',
  async standalone(row, shared, index) {
    fill(
      row,
      await storeStoppedMidSync({ databaseUrl: databaseUrl(shared, index), members: MEMBERS, cutAfter: 40 }),
    );
  },
};

export const processKilledMidSyncRow: Scenario = {
  name: 'process killed mid-sync',
  store: 'sqlite',
  async standalone(row, shared, index) {
    fill(
      row,
      await processKilledMidSync({ databaseUrl: databaseUrl(shared, index), members: MEMBERS, cutAfter: 20 }),
    );
  },
};
