import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  configureLog,
  createLogger,
  log,
  logFor,
  registerSecret,
  scrubSecrets,
  type Logger,
  type LogLevel,
} from '../../src/log/index.ts';

function capture(level: LogLevel = 'trace'): {
  logger: Logger;
  output: () => string;
  lines: () => unknown[];
} {
  const chunks: string[] = [];
  const logger = createLogger({ level, destination: { write: (chunk: string) => chunks.push(chunk) } });
  return {
    logger,
    output: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as unknown),
  };
}

const unique = (label: string) => `${label}-${randomBytes(9).toString('base64url')}`;
const JWT = `eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0In0.${randomBytes(40).toString('base64url')}`;
const DISCORD_TOKEN = `${Buffer.from('123456789012345678').toString('base64url')}.GaBcDe.${randomBytes(28).toString('base64url')}`;
const API_KEY = `kr_${randomBytes(18).toString('hex')}`;

describe('redaction by field name', () => {
  it('censors header objects, whatever their depth', () => {
    const { logger, output, lines } = capture();
    const secret = unique('plain');
    logger.info(
      {
        headers: { authorization: secret, 'x-developer-api-key': secret, accept: 'application/json' },
        request: { headers: { Authorization: secret, 'X-Developer-API-Key': secret } },
        a: { b: { c: { token: secret, password: secret, apiKey: secret } } },
        key: secret,
        secret,
      },
      'request sent',
    );
    expect(output()).not.toContain(secret);
    const [line] = lines() as [Record<string, { authorization?: string; accept?: string }>];
    expect(line.headers?.authorization).toBe('[redacted]');
    expect(line.headers?.accept).toBe('application/json');
  });

  it('does not change the logged object', () => {
    const { logger } = capture();
    const headers = { authorization: 'Bearer something-long-enough' };
    logger.info({ headers }, 'x');
    expect(headers.authorization).toBe('Bearer something-long-enough');
  });
});

describe('redaction by pattern', () => {
  it('scrubs a game API key inside a nested error message, keeping kr_ and four characters', () => {
    const { logger, output } = capture();
    const err = new Error('outer', { cause: new Error(`request with ${API_KEY} was refused`) });
    logger.error({ err, context: { detail: `key=${API_KEY}` } }, 'failed');
    expect(output()).not.toContain(API_KEY);
    expect(output()).toContain(`${API_KEY.slice(0, 7)}[redacted]`);
  });

  it('scrubs a token in a URL query', () => {
    const { logger, output } = capture();
    logger.warn(
      { url: `https://api.example.com/player/me?token=${JWT}&x=1` },
      `GET /player/me?access=${JWT}`,
    );
    expect(output()).not.toContain(JWT);
    expect(output()).not.toContain(JWT.split('.')[2]);
    expect(output()).toContain('token=[redacted]&x=1');
  });

  it('scrubs Discord bot tokens and bearer credentials in free text', () => {
    const { logger, output } = capture();
    const opaque = randomBytes(24).toString('base64url');
    logger.info(`login with ${DISCORD_TOKEN}; sent Authorization: Bearer ${opaque}`);
    expect(output()).not.toContain(DISCORD_TOKEN);
    expect(output()).not.toContain(opaque);
    expect(output()).toContain('Bearer [redacted]');
  });

  it('leaves ordinary dotted text and short kr_ words alone', () => {
    expect(scrubSecrets('version 1.2.3 of kr_abc at example.com.au')).toBe(
      'version 1.2.3 of kr_abc at example.com.au',
    );
    const notToken = `${Buffer.from('not-a-snowflake-id').toString('base64url')}.GaBcDe.${'x'.repeat(30)}`;
    expect(scrubSecrets(notToken)).toBe(notToken);
  });
});

describe('registered secrets', () => {
  it('are replaced inside free text, error stacks and encoded forms', () => {
    const secret = `${unique('linked')}/+"quoted"`;
    const forget = registerSecret(secret);
    try {
      const { logger, output } = capture();
      logger.info(`the player linked ${secret} today`);
      const err = new Error(`upstream said ${secret}`);
      logger.error({ err }, 'failed');
      logger.info({ url: `https://x.example/?k=${encodeURIComponent(secret)}` }, 'url');
      const text = output();
      expect(text).toContain('the player linked [redacted] today');
      expect(text).toContain('upstream said [redacted]');
      expect(text).not.toContain(secret);
      expect(text).not.toContain(JSON.stringify(secret).slice(1, -1));
      expect(text).not.toContain(encodeURIComponent(secret));
    } finally {
      forget();
    }
  });

  it('reach child loggers', () => {
    const secret = unique('child');
    const forget = registerSecret(secret);
    try {
      const { logger, output } = capture();
      logger.child({ subsystem: 'api' }).info(`x ${secret} y`);
      expect(output()).toContain('x [redacted] y');
    } finally {
      forget();
    }
  });

  it('are printed again once forgotten, and counted when registered twice', () => {
    const secret = unique('forget');
    const forgetFirst = registerSecret(secret);
    const forgetSecond = registerSecret(secret);
    forgetFirst();
    forgetFirst();
    expect(scrubSecrets(secret)).toBe('[redacted]');
    forgetSecond();
    expect(scrubSecrets(secret)).toBe(secret);
  });

  it('ignore values too short to mask safely', () => {
    const forget = registerSecret('abc');
    expect(scrubSecrets('abc abcdef')).toBe('abc abcdef');
    forget();
  });
});

describe('application logger', () => {
  it('gives one child per subsystem, tagged, following configureLog', () => {
    const before = log.level;
    try {
      const api = logFor('api');
      expect(logFor('api')).toBe(api);
      expect(api.bindings()).toEqual({ subsystem: 'api' });
      configureLog('debug');
      expect(log.level).toBe('debug');
      expect(api.level).toBe('debug');
      expect(logFor('store-test').level).toBe('debug');
      configureLog('warn');
      expect(api.level).toBe('warn');
    } finally {
      configureLog(before as LogLevel);
    }
  });

  it('honours the level of a created logger', () => {
    const { logger, lines } = capture('warn');
    logger.info('hidden');
    logger.warn('shown');
    expect(lines()).toEqual([expect.objectContaining({ msg: 'shown' })]);
  });

  it('serializes errors given as err or as error', () => {
    const { logger, lines } = capture();
    logger.error({ error: new Error('boom') }, 'failed');
    const [line] = lines() as [{ error: { message: string; stack: string } }];
    expect(line.error.message).toBe('boom');
    expect(line.error.stack).toContain('Error: boom');
  });
});
