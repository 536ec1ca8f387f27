import { inRange, isDrawableAmount, isDrawableTime } from '../../render/chart/bounds.ts';
import { ellipsizeToWidth, measureText } from '../../render/chart/font.ts';
import { Colors } from '../../render/chart/theme.ts';

/** One reading of a region's MMR (from the snapshots the bot keeps). */
export interface RankedPoint {
  /** Milliseconds since the epoch. */
  at: number;
  mmr: number;
}

export interface RankedRegionStanding {
  label: string;
  mmr: number;
  wins: number;
  losses: number;
  /** Earlier readings of this region's MMR, any order; the current one is added at `now`. */
  history?: readonly RankedPoint[] | undefined;
}

export interface RankedStandingChartInput {
  title: string;
  regions: readonly RankedRegionStanding[];
  locale: string;
  /** When the current MMR was read (the end of the line over time). */
  now: number;
  labels: {
    mmr: string;
    wins: string;
    losses: string;
    none: string;
    /** The word before the best MMR ("best 2,210"). */
    best: string;
    history: string;
    noHistory: string;
    /**
     * The note of a chart that left `count` values out (not finite, out of range): the same words for the same
     * locale, as `t` gives them (the image cache keys the chart by its data and locale, not by this).
     */
    outOfRange: (count: number) => string;
  };
}

/** The ranked standing chart's regions, checked and bounded before anything is drawn. */
const MAX_REGIONS = 6;
/** Readings drawn per region at most (the snapshots keep fewer; a hostile caller gets no more). */
const MAX_POINTS = 400;
const REGION_COLORS = [Colors.mmr, Colors.rival, Colors.price, Colors.sales, Colors.player, Colors.wins];
/**
 * A reading this close to now is the current one again (the snapshot of the very read the chart shows):
 * it is no earlier reading, neither a point of the line nor a "best".
 */
const SAME_READING_MS = 60_000;

export interface Region {
  label: string;
  mmr: number;
  wins: number;
  losses: number;
  /** The best of the earlier readings and the current one; undefined without an earlier reading. */
  best: number | undefined;
  color: string;
  points: RankedPoint[];
}

/**
 * The regions to draw, every value within bounds: an MMR is a finite number within ±1e12, wins and losses
 * counts of 0..1e12, a reading's time one Intl can format. What is not is left out (a count reads 0) and
 * counted in `dropped`, for the chart to say so.
 */
export function regionsOf(input: RankedStandingChartInput): { regions: Region[]; dropped: number } {
  const now = isDrawableTime(input.now) ? input.now : 0;
  let dropped = 0;
  const kept = (value: number, ok: (value: number) => boolean): number => {
    if (ok(value)) return value;
    dropped += 1;
    return 0;
  };
  const regions = input.regions.slice(0, MAX_REGIONS).map((region, i) => {
    const mmr = kept(region.mmr, (value) => inRange(value));
    const history = (region.history ?? []).slice(0, MAX_POINTS);
    const earlier = history
      .filter((point) => isDrawableTime(point.at) && inRange(point.mmr) && point.at < now - SAME_READING_MS)
      .sort((a, b) => a.at - b.at);
    dropped += history.filter((point) => !isDrawableTime(point.at) || !inRange(point.mmr)).length;
    const points = [...earlier.slice(-(MAX_POINTS - 1)), { at: now, mmr }];
    return {
      label: region.label,
      mmr,
      wins: kept(region.wins, isDrawableAmount),
      losses: kept(region.losses, isDrawableAmount),
      best: earlier.length > 0 ? Math.max(mmr, ...points.map((point) => point.mmr)) : undefined,
      color: REGION_COLORS[i % REGION_COLORS.length] ?? Colors.mmr,
      points,
    };
  });
  return { regions, dropped };
}

/** Words of `content` on at most `maxLines` lines of `maxWidth`, the last one ellipsized. */
export function wrap(content: string, maxWidth: number, size: number, maxLines: number): string[] {
  const lines: string[] = [];
  let current = '';
  const words = content.split(/\s+/).slice(0, 200);
  for (const word of words) {
    const candidate = current === '' ? word : `${current} ${word}`;
    if (measureText(candidate, size) <= maxWidth || current === '') {
      current = candidate;
      continue;
    }
    lines.push(current);
    current = word;
    if (lines.length === maxLines) break;
  }
  if (lines.length < maxLines && current !== '') lines.push(current);
  return lines
    .slice(0, maxLines)
    .map((part, i) =>
      i === maxLines - 1 && lines.length === maxLines && lines.join(' ').length < content.trim().length
        ? ellipsizeToWidth(`${part}…`, maxWidth, size)
        : ellipsizeToWidth(part, maxWidth, size),
    );
}
