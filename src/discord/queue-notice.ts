import type { CallOptions } from '../api/client.ts';
import type { Clock } from '../core/clock.ts';
import type { Translator } from '../i18n/index.ts';
import { Colors, type ReplyPayload } from '../render/payload.ts';
import type { Owner } from '../traffic/fair.ts';
import type { QueuePlace } from '../traffic/rate-limit.ts';

/** How long Discord keeps an interaction's token: its deferred reply can be edited until then. */
export const TOKEN_LIFE_MS = 15 * 60_000;
/** What an answer needs once its reply is in: drawing it and the edit that shows it. */
export const EDIT_MARGIN_MS = 15_000;

/**
 * Every notice of a router shares one: at most `perSecond` queue edits a second between them all, so a
 * long queue does not turn into a storm of edits. A notice that finds no room skips that step (it shows
 * the next one); the queue tells the ones nearest the front first, so they are the ones kept up to date.
 */
export class NoticePacer {
  readonly #perSecond: number;
  #times: number[] = [];

  constructor(perSecond = 5) {
    this.#perSecond = Math.max(1, Math.floor(perSecond));
  }

  /** Counts an edit at `now` if there is room in the last second. */
  take(now: number): boolean {
    this.#times = this.#times.filter((at) => at > now - 1_000);
    if (this.#times.length >= this.#perSecond) return false;
    this.#times.push(now);
    return true;
  }
}

export interface QueueNoticeOptions {
  readonly clock: Clock;
  readonly t: Translator;
  /** Edits the deferred reply (`Responder.progress`). */
  readonly show: (payload: ReplyPayload) => Promise<void>;
  readonly pacer: NoticePacer;
  /** When the interaction came (clock time): its token expires {@link TOKEN_LIFE_MS} later. */
  readonly receivedAt: number;
  readonly owner: Owner;
  /** The least time between two edits of this notice. Default 10 s. */
  readonly everyMs?: number;
  /** A wait expected to be shorter shows no notice ("thinking…" says enough). Default 5 s. */
  readonly showAfterMs?: number;
  /** Told an edit that failed (the answer still replaces the reply). */
  readonly onError?: (error: unknown) => void;
}

/**
 * The place of a command in the queue for the game API, shown in its deferred reply: the position and
 * when the answer should come (a Discord timestamp, which every reader's client shows in their own
 * language and keeps counting down between edits). Edited at most every `everyMs`, only when what it says
 * changes, within the router's {@link NoticePacer}; the answer replaces it (`close` first).
 */
export class QueueNotice {
  readonly #options: QueueNoticeOptions;
  /** The place of each call of the command still waiting (a command may make several at once). */
  readonly #places = new Map<number, QueuePlace>();
  #calls = 0;
  #shownAt = -Infinity;
  #shown: string | undefined;
  #editing = false;
  #closed = false;

  constructor(options: QueueNoticeOptions) {
    this.#options = options;
  }

  /** The latest moment a request of this command may finish: the token's end, less the edit's margin. */
  get deadline(): number {
    return this.#options.receivedAt + TOKEN_LIFE_MS - EDIT_MARGIN_MS;
  }

  /**
   * The tier client's options for one call of this command: its deadline (the token's) and its turn in
   * the fair queue, whose moves update the notice. The call's place is forgotten once it is served.
   */
  callOptions(): Pick<CallOptions, 'deadlineMs' | 'queue'> & { readonly done: () => void } {
    const id = this.#calls++;
    return {
      deadlineMs: Math.max(0, this.deadline - this.#options.clock.now()),
      queue: {
        owner: this.#options.owner,
        onQueued: (place) => {
          this.#places.set(id, place);
          this.#update();
        },
      },
      done: () => this.#places.delete(id),
    };
  }

  /** The answer is on its way: no more edits. */
  close(): void {
    this.#closed = true;
    this.#places.clear();
  }

  /** The place the notice speaks of: the latest of the command's calls still waiting, if any. */
  #latest(): QueuePlace | undefined {
    let place: QueuePlace | undefined;
    for (const each of this.#places.values()) {
      if (!place || each.startsAt > place.startsAt) place = each;
    }
    return place;
  }

  /** What the notice says of `place`: translated only for an edit that goes out. */
  #payload(place: QueuePlace, eta: string): ReplyPayload {
    const { t } = this.#options;
    return {
      embeds: [
        {
          color: Colors.info,
          title: t.t('common:errors.queuedTitle'),
          description: t.t('common:errors.queued', { position: t.n(shownPosition(place)), eta }),
        },
      ],
    };
  }

  /**
   * Called on every move of the queue, for every waiter (hundreds, at each request that goes out): it
   * decides on the position and the estimate alone, and translates nothing unless it edits.
   */
  #update(): void {
    if (this.#closed || this.#editing) return;
    const options = this.#options;
    const now = options.clock.now();
    if (now - this.#shownAt < (options.everyMs ?? 10_000)) return;
    const place = this.#latest();
    if (!place) return;
    const eta = `<t:${Math.ceil(place.startsAt / 1000)}:R>`;
    const key = `${shownPosition(place)}|${eta}`;
    if (key === this.#shown) return;
    if (this.#shown === undefined && place.startsAt - now < (options.showAfterMs ?? 5_000)) return;
    if (!options.pacer.take(now)) return;
    this.#shownAt = now;
    this.#shown = key;
    this.#editing = true;
    options
      .show(this.#payload(place, eta))
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        this.#editing = false;
      });
  }
}

/** The position as shown: 1 for the next to go, a whole number. */
function shownPosition(place: QueuePlace): number {
  return Math.max(1, Math.floor(place.position));
}
