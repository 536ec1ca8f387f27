import { ApiError } from '../../../api/errors.ts';
import type { TurfStatus, TurfTopPerformingClans } from '../../../api/schemas/index.ts';
import type { BudgetRule, RequestBudget } from '../../../traffic/budget.ts';
import { numberOption, stringOption } from '../../../announcements/kinds/kind.ts';
import type { AnnouncementEvent, Subscription } from '../../../announcements/model.ts';
import type { Source, SourceDeps, SourceFactory, SourceRun } from '../../../announcements/sources.ts';
import { turfDay } from '../../../api/turf-days.ts';
import { TurfReads, turfReadsBudget } from '../digest/reads.ts';
import {
  REMIND_KIND,
  REMINDERS_SOURCE,
  ReminderSchema,
  TURF_REMINDER_EVENT,
  dueAtOf,
  existedAt,
  reminderKey,
  type Reminder,
} from './model.ts';
import { ReminderRuns } from './runs.ts';
import { boardRow, mapStandingOf, mapsToRead, validMaps } from './standing.ts';

/**
 * The reminders' source: at each poll (every `EVENTS_POLL_SECONDS`), the reminders whose minute of today
 * has come and that have no run today get the standing read now, shared by all of them (the turf status,
 * today's board, and the board of each map some clan is not in the top of: a few reads whatever the number
 * of reminders, servers or clans), one event each in the inbox (`remind:<day>:<id>`) and then their run.
 * A restart finds the run, or the event pending or done, and never posts twice; a bot down at the minute
 * posts late, until the day ends, after which the day is recorded `missed` (the standing of a day that has
 * ended is no reminder).
 */
export interface RemindersOptions {
  /** The shared budget of turf clan reads (tests may give a larger one). */
  readonly budget?: BudgetRule;
}

interface Due {
  readonly subscription: Subscription;
  readonly dueAt: number;
  readonly clanId: number;
}

export class RemindersSource implements Source {
  readonly name = REMINDERS_SOURCE;
  readonly #deps: SourceDeps;
  readonly #budget: RequestBudget;
  readonly #runs: ReminderRuns;
  /** The last day whose missed reminders were written down by this process. */
  #checkedDay = -1;

  constructor(deps: SourceDeps, options: RemindersOptions = {}) {
    this.#deps = deps;
    this.#budget = turfReadsBudget(deps.api.limits, deps.clock, options.budget);
    this.#runs = new ReminderRuns(deps.db);
  }

  wanted(subscriptions: readonly Subscription[]): boolean {
    return subscriptions.some((subscription) => subscription.kind === REMIND_KIND);
  }

  async poll(run: SourceRun): Promise<void> {
    await run.deliver();
    const now = this.#deps.clock.now();
    const today = turfDay(now);
    const reminders = run.subscriptions.filter((s) => s.kind === REMIND_KIND);
    if (today > this.#checkedDay) {
      await this.#recordMissed(reminders, today - 1, now);
      this.#checkedDay = today;
    }
    const done = await this.#runs.on(today);
    const due: Due[] = [];
    for (const subscription of reminders) {
      const dueAt = dueAtOf(subscription, today);
      const clanId = numberOption(subscription, 'clanId');
      if (dueAt === undefined || clanId === undefined || now < dueAt) continue;
      if (!existedAt(subscription, dueAt) || done.has(subscription.id)) continue;
      due.push({ subscription, dueAt, clanId });
    }
    if (due.length === 0) return;
    const standings = await this.#read(due, run.signal);
    for (const item of due) {
      const event = this.#event(item, today, now, standings);
      // Already pending or done (a crash before the run was written): only the run is missing.
      await this.#deps.repos.inbox.accept(event);
      await this.#runs.record({
        subscriptionId: item.subscription.id,
        guildId: item.subscription.guildId,
        day: today,
        status: 'queued',
        at: now,
      });
    }
    await this.#deps.hook?.('stored', { eventKey: `remind:${today}` });
    await run.deliver();
  }

  /** Reminders of `day` that never came (the bot was down from their minute to midnight): said so. */
  async #recordMissed(reminders: readonly Subscription[], day: number, now: number): Promise<void> {
    if (day < 0) return;
    const done = await this.#runs.on(day);
    for (const subscription of reminders) {
      const dueAt = dueAtOf(subscription, day);
      if (dueAt === undefined || !existedAt(subscription, dueAt) || done.has(subscription.id)) continue;
      // In the outbox, but the run not written (a crash in between): it was not missed.
      const key = reminderKey(day, subscription.id);
      const { inbox } = this.#deps.repos;
      const queued = (await inbox.isDone(key)) || (await inbox.get(key)) !== undefined;
      const wrote = await this.#runs.record({
        subscriptionId: subscription.id,
        guildId: subscription.guildId,
        day,
        status: queued ? 'queued' : 'missed',
        at: now,
      });
      if (wrote && !queued)
        this.#deps.log.warn(
          { subscription: subscription.id, day },
          'a turf reminder was not posted: the day ended before the bot could',
        );
    }
  }

  /** The standing now, read once for every due reminder. */
  async #read(due: readonly Due[], signal: AbortSignal): Promise<Standings> {
    const reads = new TurfReads({
      api: this.#deps.api,
      scheduler: this.#deps.scheduler,
      budget: this.#budget,
      owner: this.name,
      signal,
    });
    const today = turfDay(this.#deps.clock.now());
    const optional = (read: Promise<TurfTopPerformingClans>) =>
      read.catch((error: unknown) => {
        signal.throwIfAborted();
        // A board that cannot be read costs the places it would have given, not the reminder.
        if (error instanceof ApiError) return undefined;
        throw error;
      });
    // Without the status there is nothing to remind of: the poll fails and the next one tries again.
    const status = await reads.call('turfStatus', {});
    const clanIds = [...new Set(due.map((item) => item.clanId))];
    const mapIds = mapsToRead(status, clanIds);
    const [overall, ...boards] = await Promise.all([
      optional(reads.call('turfTopPerformingClans', { day: today })),
      ...mapIds.map((mapId) => optional(reads.call('turfTopPerformingClans', { day: today, mapId }))),
    ]);
    return { status, overall, boards: new Map(mapIds.map((id, index) => [id, boards[index]])) };
  }

  #event(item: Due, day: number, now: number, standings: Standings): AnnouncementEvent {
    const { subscription, clanId, dueAt } = item;
    const overall = boardRow(standings.overall, clanId);
    const head = {
      subscriptionId: subscription.id,
      day,
      clanId,
      clanName: (stringOption(subscription, 'clanName') ?? String(clanId)).slice(0, 64),
      dueAt,
      readAt: now,
    };
    const parsed = ReminderSchema.safeParse({
      ...head,
      ...(overall === undefined
        ? {}
        : overall === null
          ? { position: null, rows: standings.overall?.rows.length ?? 0 }
          : overall),
      maps: validMaps(standings.status).map((map) =>
        mapStandingOf(map, clanId, standings.boards.get(map.map_id)),
      ),
    });
    // Standings that do not check out (cannot happen with the guards above) still remind of the hour.
    const reminder: Reminder = parsed.success ? parsed.data : { ...head, maps: [] };
    return {
      key: reminderKey(day, subscription.id),
      source: REMINDERS_SOURCE,
      type: TURF_REMINDER_EVENT,
      at: dueAt,
      data: { ...reminder },
    };
  }
}

interface Standings {
  readonly status: TurfStatus;
  readonly overall: TurfTopPerformingClans | undefined;
  readonly boards: ReadonlyMap<number, TurfTopPerformingClans | undefined>;
}

/** The reminders' source for the worker (a source `startPipeline` is handed). */
export function remindersSource(options: RemindersOptions = {}): SourceFactory {
  return (deps) => new RemindersSource(deps, options);
}
