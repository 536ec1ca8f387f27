import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * What a bench section returns: figures by label. A plain number or text is printed as it is (a label
 * may name its goal in words); a figure made with `against` carries its goal and whether it was met, and
 * `npm run bench` prints them side by side and lists every missed goal at the end.
 */
export interface Judged {
  readonly value: number | string;
  /** The goal as printed, e.g. `≤ 1.03`. */
  readonly goal: string;
  readonly met: boolean;
}

export type Figure = number | string | Judged;
export type SectionFigures = Record<string, Figure>;

/** `value` against an upper bound (`max`) and/or a lower bound (`min`), rounded to `digits` for print. */
export function against(
  value: number,
  bound: { readonly max?: number; readonly min?: number },
  digits = 3,
): Judged {
  const parts: string[] = [];
  if (bound.min !== undefined) parts.push(`≥ ${bound.min}`);
  if (bound.max !== undefined) parts.push(`≤ ${bound.max}`);
  const met =
    Number.isFinite(value) &&
    (bound.min === undefined || value >= bound.min) &&
    (bound.max === undefined || value <= bound.max);
  return { value: Number(value.toFixed(digits)), goal: parts.join(' and '), met };
}

export function isJudged(figure: Figure): figure is Judged {
  return typeof figure === 'object';
}

/** One line of the report: `label: value` and, for a judged figure, its goal and the verdict. */
export function formatFigure(label: string, figure: Figure): string {
  if (!isJudged(figure)) return `  ${label}: ${figure}`;
  return `  ${label}: ${figure.value}   [goal ${figure.goal}: ${figure.met ? 'met' : 'NOT MET'}]`;
}

/** The longest a section may hold the event loop. */
export const LOOP_DELAY_GOAL_MS = 50;
/** The delay monitor's timer interval: what it records beyond this is the loop being held. */
const RESOLUTION_MS = 2;

/**
 * The label of the longest event-loop delay while a section measures (its set-up, starting a bot and
 * compiling its modules, left out). A section that reports it is judged on it; otherwise on its whole run.
 */
export const MEASURED_LOOP_DELAY = 'longest event-loop delay while measuring (ms)';

/**
 * Watches the event loop (perf_hooks.monitorEventLoopDelay) until `stop`, which says the longest delay.
 * A delay is recorded when the monitor's timer fires after it: `stop` lets it fire once more first, or a
 * block just before `stop` (a reload's last parse) would go unseen.
 */
export function watchLoop(): { stop(): Promise<number> } {
  const monitor = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  monitor.enable();
  return {
    async stop() {
      await new Promise((resolve) => setTimeout(resolve, 3 * RESOLUTION_MS));
      monitor.disable();
      return Math.max(0, monitor.max / 1e6 - RESOLUTION_MS);
    },
  };
}

/** `watchLoop`'s figure, judged against the goal. */
export function loopDelayFigure(ms: number): Judged {
  return against(ms, { max: LOOP_DELAY_GOAL_MS }, 1);
}
