import type { Database } from '../../../db/index.ts';
import { statementChunks } from '../../../db/index.ts';

/**
 * What each reminder did on each turf day (`reminder_runs`): `queued` once its post is in the outbox,
 * `missed` when the day ended before it could be (the bot was not running from its minute on). A week
 * is kept; older rows are pruned as new ones are written.
 */
export type RunStatus = 'queued' | 'missed';

export interface ReminderRun {
  readonly day: number;
  readonly status: RunStatus;
  readonly at: number;
}

const KEEP_DAYS = 7;

export class ReminderRuns {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** The reminders that have a run on `day` (one indexed read for every reminder). */
  async on(day: number): Promise<Set<string>> {
    const rows = await this.#db.kysely
      .selectFrom('reminder_runs')
      .select('subscription_id')
      .where('day', '=', day)
      .execute();
    return new Set(rows.map((row) => row.subscription_id));
  }

  /** Writes the day's run unless there is one; true when this call wrote it. */
  async record(
    run: { readonly subscriptionId: string; readonly guildId: string } & ReminderRun,
  ): Promise<boolean> {
    const result = await this.#db.kysely
      .insertInto('reminder_runs')
      .values({
        subscription_id: run.subscriptionId,
        guild_id: run.guildId,
        day: run.day,
        status: run.status,
        at: run.at,
      })
      .onConflict((c) => c.columns(['subscription_id', 'day']).doNothing())
      .executeTakeFirst();
    const wrote = Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    if (wrote)
      await this.#db.kysely
        .deleteFrom('reminder_runs')
        .where('day', '<', run.day - KEEP_DAYS)
        .execute();
    return wrote;
  }

  /** Each reminder's latest run. */
  async latest(subscriptionIds: readonly string[]): Promise<Map<string, ReminderRun>> {
    const latest = new Map<string, ReminderRun>();
    for (const chunk of statementChunks(subscriptionIds)) {
      const rows = await this.#db.kysely
        .selectFrom('reminder_runs')
        .selectAll()
        .where('subscription_id', 'in', chunk)
        .orderBy('day', 'asc')
        .execute();
      for (const row of rows)
        latest.set(row.subscription_id, { day: row.day, status: row.status, at: row.at });
    }
    return latest;
  }

  /** Forgets a removed reminder's runs. */
  async forget(subscriptionId: string): Promise<void> {
    await this.#db.kysely.deleteFrom('reminder_runs').where('subscription_id', '=', subscriptionId).execute();
  }
}
