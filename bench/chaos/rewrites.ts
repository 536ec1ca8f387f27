import { isLosslessNumber, parse, stringify } from 'lossless-json';
import type { Rewrite } from './upstream-proxy.ts';

/**
 * Reply rewrites for the upstream proxy. Bodies are read with lossless-json, so the ids beyond 2^53 the
 * sandbox writes survive the trip. Every rewrite leaves a body it cannot read as it was.
 */
type Json = unknown;

function read(body: Buffer): Json {
  return parse(body.toString('utf8'));
}

function write(value: Json): readonly Buffer[] {
  return [Buffer.from(stringify(value) ?? 'null', 'utf8')];
}

function isRecord(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

/** Feed and turf paths: the announcement sources, which the size faults leave alone. */
function isFeed(path: string): boolean {
  return path === '/api/events' || path.startsWith('/territorial-wars/');
}

/** Every string equal to a key of `names` (a map, clan or player name) becomes its value. */
export function renameEverywhere(names: ReadonlyMap<string, string>): Rewrite {
  const walk = (value: Json): Json => {
    if (typeof value === 'string') return names.get(value) ?? value;
    if (Array.isArray(value)) return value.map(walk);
    if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  return (_path, body) => write(walk(read(body)));
}

/** Every outermost array of a command's reply grows to `size` items (its own items, repeated). */
export function inflateArrays(size: number): Rewrite {
  return (path, body) => {
    if (isFeed(path)) return undefined;
    const arrays: string[] = [];
    const walk = (value: Json): Json => {
      if (Array.isArray(value)) {
        if (value.length === 0) return value;
        const items = value.map((item) => stringify(item) ?? 'null');
        arrays.push(`[${Array.from({ length: size }, (_, i) => items[i % items.length]).join(',')}]`);
        return `__chaos_array_${arrays.length - 1}__`;
      }
      if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
      return value;
    };
    const text = stringify(walk(read(body))) ?? 'null';
    if (arrays.length === 0) return undefined;
    return [
      Buffer.from(text.replace(/"__chaos_array_(\d+)__"/g, (_, n: string) => arrays[Number(n)] ?? '[]')),
    ];
  };
}

/**
 * The first `times` command replies carry an unknown field holding `bytes` of text (one shared buffer,
 * so the proxy does not build a new one per reply).
 */
export function padReplies(bytes: number, times: number): Rewrite {
  const padding = Buffer.alloc(bytes, 'x');
  let left = times;
  return (path, body) => {
    if (isFeed(path) || left <= 0) return undefined;
    const text = body.toString('utf8');
    const head = '{"data":{';
    const at = text.startsWith(head) ? head.length : text.startsWith('{') ? 1 : -1;
    if (at < 0) return undefined;
    left -= 1;
    const rest = text.slice(at);
    return [
      Buffer.from(`${text.slice(0, at)}"x_chaos_padding":"`),
      padding,
      Buffer.from(rest.startsWith('}') ? `"${rest}` : `",${rest}`),
    ];
  };
}

export const POISONED_TURF_DAY = 1e13;

/**
 * The turf status says the day is 1e13, and every clan's earnings list a day before it: the turf feed sees
 * the day roll over and announces the earnings of that impossible day.
 */
export function poisonTurfDay(): Rewrite {
  return (path, body) => {
    const reply = read(body);
    if (!isRecord(reply) || !isRecord(reply.data)) return undefined;
    if (path === '/territorial-wars/status') {
      return write({ ...reply, data: { ...reply.data, day: POISONED_TURF_DAY } });
    }
    const days = reply.data.days;
    if (/^\/territorial-wars\/clan\/\d+\/earnings$/.test(path) && Array.isArray(days)) {
      const poisoned = [...days, { day: POISONED_TURF_DAY - 1, kr: 777 }];
      return write({ ...reply, data: { ...reply.data, days: poisoned } });
    }
    return undefined;
  };
}

/** Where the poisoned days of {@link poisonPriceHistory} are: a skin's reply on the developer tier. */
const MARKET_SKIN = /^\/api\/market\/skin\/\d+$/;

/**
 * Issue 18, finding 1: every `/market skin` reply's price history gains a day of 1e300 KR × 1e9 sales and
 * days priced 1e308 and -1e308, on the latest day it holds (today without one), so that they fall in the
 * chart's window. Before the bounds, one such reply made the chart's axis loop until Node died.
 */
export function poisonPriceHistory(): Rewrite {
  return (path, body) => {
    if (!MARKET_SKIN.test(path)) return undefined;
    const reply = read(body);
    if (!isRecord(reply) || !isRecord(reply.data)) return undefined;
    const days = Array.isArray(reply.data.price_history) ? reply.data.price_history : [];
    const dates = days.flatMap((d) => (isRecord(d) && typeof d.date === 'string' ? [d.date] : []));
    const date = dates.sort().at(-1) ?? new Date().toISOString().slice(0, 10);
    const poisoned = [
      ...days,
      { date, average_price: 1e300, sales: 1e9 },
      { date, average_price: 1e308, sales: 1 },
      { date, average_price: -1e308, sales: 1 },
    ];
    return write({ ...reply, data: { ...reply.data, price_history: poisoned } });
  };
}
