import type { HostName } from './http.ts';
import { matchesPath, type PathMatch } from './paths.ts';

export interface RequestLogEntry {
  readonly host: HostName;
  readonly method: string;
  /** The raw path as sent (percent-encoded), without the query. */
  readonly path: string;
  /** Query parameters (the last value of a repeated one). */
  readonly query: Readonly<Record<string, string>>;
  readonly keyPresent: boolean;
  readonly bearerPresent: boolean;
  /** The status answered; 0 when the socket was reset without an answer. */
  readonly status: number;
  /** Clock time (the sandbox's `now`) when the request arrived. */
  readonly at: number;
}

/** What the sandbox was asked. Only whether a key or token was sent is kept, never their values. */
export class RequestLog {
  #entries: RequestLogEntry[] = [];

  record(entry: RequestLogEntry): void {
    this.#entries.push(entry);
  }

  count(match?: PathMatch): number {
    if (match === undefined) return this.#entries.length;
    return this.#entries.filter((entry) => matchesPath(match, entry.path)).length;
  }

  entries(): readonly RequestLogEntry[] {
    return [...this.#entries];
  }

  clear(): void {
    this.#entries = [];
  }
}
