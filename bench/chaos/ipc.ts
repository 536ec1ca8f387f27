/** Messages between the chaos harness (parent) and the bot process it starts (child), over Node's IPC. */

export interface AnnouncementTuning {
  readonly pollIntervalMs: number;
  readonly budget: { readonly limit: number; readonly windowMs: number };
  readonly webhookHost: string;
}

export type ToBot =
  | {
      readonly type: 'start';
      readonly env: Record<string, string>;
      readonly announcements: AnnouncementTuning;
    }
  /** The measurement window starts: the event-loop delay histogram is reset. */
  | { readonly type: 'mark' }
  /** Every store write fails from now on (`on`), or works again. */
  | { readonly type: 'store-readonly'; readonly on: boolean }
  | { readonly type: 'stop' };

export interface ProcessStats {
  /** Longest event-loop delay since the last mark (ms). */
  readonly maxDelayMs: number;
  readonly rssMb: number;
  /** Peak resident set size of the whole process lifetime (MB). */
  readonly peakRssMb: number;
}

export type FromBot =
  | { readonly type: 'ready'; readonly webhookPort: number | undefined }
  | { readonly type: 'stats'; readonly stats: ProcessStats }
  | { readonly type: 'stopped'; readonly stats: ProcessStats }
  | { readonly type: 'failed'; readonly message: string };

/** How often the bot process reports its stats (a longer silence means its event loop was blocked). */
export const STATS_INTERVAL_MS = 200;
