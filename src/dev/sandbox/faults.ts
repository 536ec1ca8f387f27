import { matchesPath, type PathMatch } from './paths.ts';

export type Fault =
  | { readonly match: PathMatch; readonly kind: 'status'; readonly status: number; readonly times?: number }
  | {
      readonly match: PathMatch;
      readonly kind: 'rateLimit';
      readonly retryAfterSec: number;
      readonly times?: number;
    }
  | { readonly match: PathMatch; readonly kind: 'delay'; readonly ms: number; readonly times?: number }
  | { readonly match: PathMatch; readonly kind: 'malformed'; readonly times?: number }
  | { readonly match: PathMatch; readonly kind: 'extraFields'; readonly times?: number }
  | { readonly match: PathMatch; readonly kind: 'wrongType'; readonly field: string; readonly times?: number }
  | { readonly match: PathMatch; readonly kind: 'reset'; readonly times?: number };

interface Armed {
  readonly fault: Fault;
  left: number;
}

/**
 * Faults to inject into replies. The first armed fault (in injection order) whose `match` selects a
 * request's path applies to it and uses up one of its `times` (default: unlimited).
 */
export class FaultController {
  #armed: Armed[] = [];

  inject(fault: Fault): void {
    const times = fault.times ?? Number.POSITIVE_INFINITY;
    if (!(times > 0)) throw new RangeError('a fault needs times > 0');
    this.#armed.push({ fault, left: times });
  }

  clear(): void {
    this.#armed = [];
  }

  /** The fault for this request, if any, counting it as used. */
  take(path: string): Fault | undefined {
    const armed = this.#armed.find(
      (candidate) => candidate.left > 0 && matchesPath(candidate.fault.match, path),
    );
    if (!armed) return undefined;
    armed.left--;
    this.#armed = this.#armed.filter((candidate) => candidate.left > 0);
    return armed.fault;
  }
}

const EXTRA_FIELDS = { x_sandbox_extra: 'unexpected', x_sandbox_extra_n: 7 } as const;

/** Every object inside `data` gets fields no schema knows. */
export function addExtraFields(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(addExtraFields);
  if (typeof data !== 'object' || data === null) return data;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) out[key] = addExtraFields(value);
  return { ...out, ...EXTRA_FIELDS };
}

/** Every `field` inside `data` gets a value of the wrong type: strings become numbers, the rest strings. */
export function breakFieldType(data: unknown, field: string): unknown {
  if (Array.isArray(data)) return data.map((item) => breakFieldType(item, field));
  if (typeof data !== 'object' || data === null) return data;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    out[key] = key === field ? wrongType(value) : breakFieldType(value, field);
  }
  return out;
}

function wrongType(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
      return value.length;
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(value);
    default:
      return value === null ? 0 : 'wrong-type';
  }
}
