export { startSandbox } from './server.ts';
export type { IssueTokenOptions, Sandbox, SandboxOptions, SandboxUrls } from './server.ts';
export type { ActivityOptions, PlayOptions, SandboxActivity } from './activity.ts';
export type { RosterOptions, SandboxRosters } from './clans-roster.ts';
export type { SandboxMarket } from './market-live.ts';
export type { KpdVerdict, SandboxKpd } from './kpd-live.ts';
export type { Fault, FaultController } from './faults.ts';
export type { RequestLog, RequestLogEntry } from './request-log.ts';
export type { PathMatch } from './paths.ts';
export type { SandboxKeys } from './keys.ts';
export type { Role, TokenClaims } from './jwt.ts';
export type { WindowRule } from './rate-limit.ts';
export type { Latencies } from './context.ts';
export type * from './world/types.ts';
export {
  CURRENT_SEASON,
  FIRST_MARKET_ID,
  FIRST_MATCH_ID,
  PREVIOUS_SEASON,
  RAID_MAP_IDS,
  RANKED_REGIONS,
  TURF_MAP_IDS,
} from './world/types.ts';
export { TURF_EPOCH_MS, TURF_SEASON_DAYS } from './turf.ts';
