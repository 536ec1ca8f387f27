import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const REDACTED = '[redacted]';

/** Field names whose values are always replaced, at the top level and up to three objects deep. */
const SENSITIVE_FIELDS = [
  'authorization',
  'Authorization',
  'cookie',
  'token',
  'accessToken',
  'apiKey',
  'key',
  'password',
  'secret',
  '["x-developer-api-key"]',
  '["X-Developer-API-Key"]',
];

function redactPaths(): string[] {
  const paths: string[] = [];
  for (const field of SENSITIVE_FIELDS) {
    const step = field.startsWith('[') ? field : `.${field}`;
    paths.push(field);
    for (const prefix of ['*', '*.*', '*.*.*']) paths.push(`${prefix}${step}`);
  }
  return paths;
}

const registered = new Map<string, number>();
let registeredPattern: RegExp | undefined;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function rebuildRegisteredPattern(): void {
  const forms = new Set<string>();
  for (const value of registered.keys()) {
    forms.add(value);
    forms.add(JSON.stringify(value).slice(1, -1));
    forms.add(encodeURIComponent(value));
  }
  // Longest first, so that a secret containing another one is replaced whole.
  const sorted = [...forms].sort((a, b) => b.length - a.length).map(escapeRegExp);
  registeredPattern = sorted.length === 0 ? undefined : new RegExp(sorted.join('|'), 'g');
}

/** Shorter values are ignored: masking them would garble ordinary text and hide nothing. */
export const MIN_SECRET_LENGTH = 6;

/**
 * Registers a secret value (a token, an API key, a webhook secret...): from now on every log line has it
 * replaced by `[redacted]`, wherever it appears (a field, a message, a URL, an error stack), also in its
 * JSON-escaped and URL-encoded forms. Returns a function that forgets it again (for short-lived secrets
 * such as player tokens); a value registered twice must be forgotten twice.
 */
export function registerSecret(value: string): () => void {
  if (value.length < MIN_SECRET_LENGTH) return () => undefined;
  registered.set(value, (registered.get(value) ?? 0) + 1);
  if (registered.get(value) === 1) rebuildRegisteredPattern();
  let done = false;
  return () => {
    if (done) return;
    done = true;
    const count = registered.get(value) ?? 0;
    if (count <= 1) {
      registered.delete(value);
      rebuildRegisteredPattern();
    } else {
      registered.set(value, count - 1);
    }
  };
}

// Every pattern runs over whole log lines, which may hold user or game text: each is anchored so that a
// failed attempt scans a bounded stretch, or starts only where a run of token characters starts.
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g;
const GAME_KEY = /(?<![A-Za-z0-9])kr_([A-Za-z0-9_-]{4})[A-Za-z0-9_-]{4,}/g;
const DISCORD_TOKEN = /(?<![A-Za-z0-9_-])([A-Za-z0-9_-]{16,40})\.[A-Za-z0-9_-]{4,10}\.[A-Za-z0-9_-]{20,}/g;
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
/** Interaction and webhook tokens in a path (`/webhooks/<app>/<token>/messages/@original`, `/interactions/<id>/<token>/callback`). */
const TOKEN_PATH = /(?<![A-Za-z0-9_-])(webhooks|interactions)\/(\d{1,25})\/[^/?#\s"'\\]+/g;

function isSnowflakeBase64(part: string): boolean {
  return /^\d{15,21}$/.test(Buffer.from(part, 'base64url').toString('latin1'));
}

/**
 * Removes every known secret from a piece of text: registered secrets, JWTs, game API keys (`kr_` and the next
 * four characters stay, to tell keys apart), Discord bot tokens, interaction and webhook tokens in URLs
 * and paths, and bearer credentials.
 */
export function scrubSecrets(text: string): string {
  let out = registeredPattern === undefined ? text : text.replace(registeredPattern, REDACTED);
  out = out.replace(JWT, REDACTED);
  out = out.replace(GAME_KEY, (_match, kept: string) => `kr_${kept}${REDACTED}`);
  out = out.replace(DISCORD_TOKEN, (match, first: string) => (isSnowflakeBase64(first) ? REDACTED : match));
  out = out.replace(TOKEN_PATH, (_match, kind: string, id: string) => `${kind}/${id}/${REDACTED}`);
  return out.replace(BEARER, (_match, word: string) => `${word} ${REDACTED}`);
}

export interface LoggerOptions {
  readonly level?: LogLevel;
  /** Where lines go; standard output when absent. Tests pass a stream that collects the lines. */
  readonly destination?: DestinationStream;
}

/**
 * Creates a logger with this project's redaction: sensitive field names are censored and every serialized
 * line passes through {@link scrubSecrets}. The application uses {@link log}; tests create their own.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const settings = {
    level: options.level ?? 'info',
    redact: { paths: redactPaths(), censor: REDACTED },
    serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
    hooks: { streamWrite: scrubSecrets },
  };
  return options.destination === undefined ? pino(settings) : pino(settings, options.destination);
}

/** The application's root logger. Prefer {@link logFor} in a subsystem. */
export const log: Logger = createLogger();

const children = new Map<string, Logger>();

/** The child logger of one subsystem (`api`, `discord`, `events`, `store`...), tagged `subsystem`. */
export function logFor(subsystem: string): Logger {
  let child = children.get(subsystem);
  if (child === undefined) {
    child = log.child({ subsystem });
    children.set(subsystem, child);
  }
  return child;
}

/** Sets the level of {@link log} and of every child made by {@link logFor}, before or after this call. */
export function configureLog(level: LogLevel): void {
  log.level = level;
  for (const child of children.values()) child.level = level;
}
