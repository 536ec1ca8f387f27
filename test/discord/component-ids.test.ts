import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  COMPONENT_LIFETIME_MS,
  decodeComponentId,
  defineComponents,
} from '../../src/discord/component-id.ts';

const NOW = Date.UTC(2026, 0, 1);
const ids = defineComponents('player', {
  matches: ['name', 'season', 'page'],
  section: ['name'],
});

function decode(id: string | undefined) {
  const parsed = decodeComponentId(id ?? '');
  return parsed && ids.decode(parsed);
}

describe('defineComponents', () => {
  it('round-trips named arguments in the wire format of encodeComponentId', () => {
    const id = ids.encode.matches({ name: 'a:b~c', season: 0, page: 2 }, NOW + 60_000);
    expect(id).toBe(`player:matches:a%3Ab~c:0:2~${Math.ceil((NOW + 60_000) / 1000).toString(36)}`);
    expect(decode(id)).toEqual({
      action: 'matches',
      args: { name: 'a:b~c', season: '0', page: '2' },
      expiresAt: NOW + 60_000,
    });
  });

  it('narrows the decoded arguments by action', () => {
    const decoded = decode(ids.encode.section({ name: 'Ghost' }, NOW));
    expect(decoded?.action).toBe('section');
    if (decoded?.action === 'section') {
      expectTypeOf(decoded.args).toEqualTypeOf<{ readonly name: string }>();
      // @ts-expect-error: `section` carries no page
      expect(decoded.args.page).toBeUndefined();
    }
    // @ts-expect-error: `matches` needs a season
    void ids.encode.matches({ name: 'x', page: 1 }, NOW);
  });

  it('keeps the expiry, and the router refuses what has expired', () => {
    const pager = ids.pager(NOW, (page, expiresAt) =>
      ids.encode.matches({ name: 'x', season: 0, page }, expiresAt),
    );
    const next = decodeComponentId(pager.page(2) ?? '');
    expect(next?.expiresAt).toBe(NOW + COMPONENT_LIFETIME_MS);
    expect(decode(pager.page(2))?.args).toEqual({ name: 'x', season: '0', page: '2' });
    expect(decodeComponentId(pager.label ?? '')).toMatchObject({ command: 'player', action: 'page-label' });
  });

  it('gives undefined for arguments that do not fit in 100 characters', () => {
    expect(ids.encode.section({ name: 'x'.repeat(90) }, NOW)).toBeUndefined();
    const pager = ids.pager(NOW, (page, at) =>
      ids.encode.matches({ name: 'x'.repeat(90), season: 0, page }, at),
    );
    expect(pager.page(1)).toBeUndefined();
  });

  it('sends a lone surrogate as U+FFFD, never as a broken id', () => {
    const id = ids.encode.section({ name: 'Ghost\uD800x' }, NOW);
    expect(id).toBeDefined();
    expect(decode(id)?.args).toEqual({ name: 'Ghost\uFFFDx' });
  });

  it('refuses ids of another command, an unknown action or the wrong number of arguments', () => {
    const other = decodeComponentId(
      defineComponents('clan', { section: ['name'] }).encode.section({ name: 'x' }, NOW) ?? '',
    );
    expect(other && ids.decode(other)).toBeUndefined();
    for (const raw of [
      'player:nope:x~zz',
      'player:section~zz',
      'player:section:a:b~zz',
      'player:matches:a:1~zz',
    ]) {
      const parsed = decodeComponentId(raw);
      expect(parsed, raw).toBeDefined();
      expect(ids.decode(parsed!), raw).toBeUndefined();
    }
  });
});
