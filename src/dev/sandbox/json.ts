/**
 * JSON writer that emits `bigint` values as bare integers with all their digits. The service writes
 * match and market ids beyond 2^53 as plain JSON numbers, and `JSON.stringify` cannot (it throws on
 * bigint), so replies hold such ids as bigint and go through this writer.
 */
export function toJson(value: unknown): string {
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        return `[${value.map((item: unknown) => (item === undefined ? 'null' : toJson(item))).join(',')}]`;
      }
      const parts: string[] = [];
      for (const [key, item] of Object.entries(value)) {
        if (item === undefined || typeof item === 'function') continue;
        parts.push(`${JSON.stringify(key)}:${toJson(item)}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      return 'null';
  }
}

/** A digit-string id (kept as a string in the world) as the bigint the writer emits as a bare number. */
export function wireId(id: string): bigint {
  return BigInt(id);
}
