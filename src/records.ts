import type { Config } from './config/index.ts';
import type { Database } from './db/index.ts';
import type { Records } from './services.ts';
import type { Store } from './store/index.ts';
import { openRepositories } from './announcements/repositories.ts';
import { openPlayerRecords } from './players/records.ts';
import { AlertRepository } from './features/alerts/store.ts';
import { openRoleRecords } from './features/roles/rules.ts';
import { kpdKeys } from './features/kpd/keys.ts';
import { ClanRosterStore } from './features/clans/log/store.ts';

/**
 * Every record of the bot, opened once over the database (and the store, for delivery claims): the
 * composition root puts them in `Services.records`, and every part takes them from there. Whoever adds a
 * record adds it to `Records` where it is defined and opens it here; TypeScript says when one is missing.
 */
export function openRecords(db: Database, store: Store, config: Pick<Config, 'secret'>): Records {
  return {
    announcements: openRepositories(db, store),
    players: openPlayerRecords(db),
    alerts: new AlertRepository(db),
    roles: openRoleRecords(db),
    kpdKeys: kpdKeys({ db, config }),
    clanRosters: new ClanRosterStore(db),
  };
}
