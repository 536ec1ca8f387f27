import { KPD_CONTEXT_LABELS, KPD_RATING_LABELS, KPD_STATUS_LABELS } from './names.ts';
import type { WorldIndex } from './lookup.ts';
import { iso } from './time.ts';
import type { KpdCall, World } from './world/types.ts';

// KPD calls while the sandbox runs: a player reports another (a new call, open), and a KPD officer reviews
// it (its status and verdict change). `/api/kpd/latest-calls` lists the newest 50, so the moderators' feed
// sees a new call, then its change.

/** How many calls `/api/kpd/latest-calls` lists, newest first (observed: 50, no pagination). */
export const KPD_LATEST_CALLS = 50;

/** A review's verdict: 1 banned, 2 rejected (`KPD_RATING_LABELS`; 0 is pending). */
export type KpdVerdict = 1 | 2;

export interface SandboxKpd {
  /**
   * `callerName` reports `calledName` at `now()` (in a ranked match unless `context` says otherwise: 0
   * public, 1 ranked, 2 comp, 3 custom): a new open call, the newest. Returns its id. Throws for an
   * unknown name or a player reporting themselves.
   */
  report(callerName: string, calledName: string, context?: number): number;
  /**
   * A KPD officer (`officerName`, a player with the KPD role) reviews the call at `now()`: its status
   * becomes reviewed and its verdict `verdict`. Throws for an unknown call, or an officer without the role.
   */
  review(callId: number, officerName: string, verdict: KpdVerdict): KpdCall;
}

export class KpdLog implements SandboxKpd {
  readonly #world: World;
  readonly #index: WorldIndex;
  readonly #now: () => number;

  constructor(world: World, index: WorldIndex, now: () => number) {
    this.#world = world;
    this.#index = index;
    this.#now = now;
  }

  report(callerName: string, calledName: string, context = 1): number {
    const caller = this.#index.player(callerName);
    const called = this.#index.player(calledName);
    if (!caller || !called) throw new Error(`the sandbox world has no player ${callerName} or ${calledName}`);
    if (caller.id === called.id) throw new RangeError('a player cannot report themselves');
    const label = KPD_CONTEXT_LABELS[context];
    if (label === undefined) throw new RangeError('context is 0, 1, 2 or 3');
    const calls = this.#world.kpdCalls as KpdCall[];
    const id = Math.max(0, ...calls.map((c) => c.id)) + 1;
    const at = iso(this.#now());
    const previous = calls.filter((c) => c.caller_id === caller.id);
    calls.unshift({
      id,
      date: at,
      caller_id: caller.id,
      caller_name: caller.name,
      caller_score: caller.stats.score,
      caller_job_rating: previous.length,
      caller_job_rating_positive: previous.filter((c) => c.rating === 1).length,
      called_id: called.id,
      called_name: called.name,
      called_score: called.stats.score,
      kdf_type: context,
      kdf_type_label: label,
      status: 1,
      status_label: KPD_STATUS_LABELS[1] ?? '',
      rating: 0,
      rating_label: KPD_RATING_LABELS[0],
      officer_id: 0,
      officer_name: '',
      status_date: at,
      game_code: `FRA:${id.toString(36).slice(-5)}`,
      host: 'de-fra-1.gameservers.example',
      port: String(30_000 + (id % 10_000)),
      token: id.toString(16).padStart(32, '0'),
    });
    return id;
  }

  review(callId: number, officerName: string, verdict: KpdVerdict): KpdCall {
    const calls = this.#world.kpdCalls as KpdCall[];
    const at = calls.findIndex((c) => c.id === callId);
    const call = calls[at];
    if (!call) throw new Error(`the sandbox world has no KPD call ${callId}`);
    const officer = this.#index.player(officerName);
    if (!officer?.kpd) throw new Error(`${officerName} is not a KPD officer`);
    const reviewed: KpdCall = {
      ...call,
      status: 3,
      status_label: KPD_STATUS_LABELS[3] ?? '',
      rating: verdict,
      rating_label: KPD_RATING_LABELS[verdict],
      officer_id: officer.id,
      officer_name: officer.name,
      status_date: iso(this.#now()),
    };
    calls[at] = reviewed;
    return reviewed;
  }
}
