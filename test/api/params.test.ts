import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as p from '../../src/api/params.ts';

function accepts(schema: z.ZodType, value: unknown): boolean {
  return schema.safeParse(value).success;
}

describe('name', () => {
  it('trims and keeps names of 1 to 100 characters', () => {
    expect(p.name.parse('  Ada ')).toBe('Ada');
    expect(p.name.parse('x'.repeat(100))).toBe('x'.repeat(100));
    expect(p.name.parse('名前 with spaces')).toBe('名前 with spaces');
  });

  it('refuses empty, blank, too long and non-string names', () => {
    for (const bad of ['', '   ', 'x'.repeat(101), 5, null, undefined])
      expect(accepts(p.name, bad)).toBe(false);
  });
});

describe('matchId', () => {
  it('keeps a digit string beyond 2^53 identical to the input', () => {
    const input = '9007199254740993';
    const parsed = p.matchId.parse(input);
    expect(parsed).toBe(input);
    expect(typeof parsed).toBe('string');
  });

  it('refuses numbers, signs, spaces, letters and the empty string', () => {
    for (const bad of ['123abc', '-1', '+1', '', ' 12', '12 ', '1.0', '1e5', 5, 9007199254740993n, null]) {
      expect(accepts(p.matchId, bad)).toBe(false);
    }
  });

  it('keeps any digit string of an unsigned 64-bit id as it is', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (id) => {
        expect(p.matchId.parse(id.toString())).toBe(id.toString());
      }),
    );
  });
});

describe('numeric rules', () => {
  it.each([
    ['region', p.region, [0, 2, 3, 4], [-1, 1.5, '3', undefined]],
    ['season', p.season, [undefined, 0, 5], [-1, 2.5, '5']],
    ['pathSeason', p.pathSeason, [0, 5], [undefined, -1]],
    ['page', p.page, [undefined, 1, 2, 500], [0, -1, 1.5, '1']],
    ['days', p.days, [undefined, 1, 30, 120], [0, 121, 7.5, '30']],
    ['skinIndex', p.skinIndex, [0, 120], [-1, 0.5, undefined]],
    ['after', p.after, [undefined, 0, 41], [-1, 1.5]],
    ['limit', p.limit, [undefined, 1, 100], [0, 101, 2.5]],
    ['offset', p.offset, [undefined, 0, 10], [-1, 0.5]],
    ['perPage', p.perPage, [undefined, 1, 100], [0, 101]],
  ] as const)('%s', (_, schema, good, bad) => {
    for (const value of good) expect(accepts(schema, value), `accepts ${String(value)}`).toBe(true);
    for (const value of bad) expect(accepts(schema, value), `refuses ${String(value)}`).toBe(false);
  });

  it('map leaderboard type and order', () => {
    expect(p.leaderboardType.parse('score')).toBe('score');
    expect(p.leaderboardType.parse('time')).toBe('time');
    for (const bad of ['Score', 'kills', '', 0]) expect(accepts(p.leaderboardType, bad)).toBe(false);
    expect(p.leaderboardOrder.parse(0)).toBe(0);
    expect(p.leaderboardOrder.parse(1)).toBe(1);
    for (const bad of [2, -1, '0', true]) expect(accepts(p.leaderboardOrder, bad)).toBe(false);
  });
});

describe('params objects', () => {
  it('refuse unknown keys', () => {
    const schema = p.params({ playerName: p.name, page: p.page });
    expect(schema.parse({ playerName: 'Ada', page: 2 })).toEqual({ playerName: 'Ada', page: 2 });
    expect(accepts(schema, { playerName: 'Ada', name: 'Ada' })).toBe(false);
    expect(accepts(p.noParams, { page: 1 })).toBe(false);
    expect(p.noParams.parse({})).toEqual({});
  });

  it('drop absent values and join lists with commas', () => {
    const schema = p.params({ ids: z.array(z.number()).optional(), page: p.page });
    expect(schema.parse({ ids: [3, 1, 2], page: undefined })).toEqual({ ids: '3,1,2' });
    expect(Object.keys(schema.parse({}))).toEqual([]);
  });

  it('hand the client only strings, numbers and booleans', () => {
    const schema = p.params({
      ids: z.array(z.number()).optional(),
      name: p.name,
      open: p.flag,
      page: p.page,
    });
    fc.assert(
      fc.property(
        fc.record(
          {
            ids: fc.array(fc.nat(), { minLength: 1 }),
            name: fc.string({ minLength: 1, maxLength: 20 }).filter((value) => value.trim() !== ''),
            open: fc.boolean(),
            page: fc.integer({ min: 1, max: 1000 }),
          },
          { requiredKeys: ['name'] },
        ),
        (input) => {
          const output = schema.parse(input);
          for (const value of Object.values(output))
            expect(['string', 'number', 'boolean']).toContain(typeof value);
        },
      ),
    );
  });
});

describe('eventsParams', () => {
  it('joins the event types and target ids with commas', () => {
    expect(
      p.eventsParams.parse({
        after: 10,
        types: ['map.featured', 'map.unfeatured'],
        targetType: 'map',
        targetId: [7, 8, 9],
        limit: 50,
      }),
    ).toEqual({
      after: 10,
      types: 'map.featured,map.unfeatured',
      targetType: 'map',
      targetId: '7,8,9',
      limit: 50,
    });
  });

  it('accepts no filter at all', () => {
    expect(p.eventsParams.parse({})).toEqual({});
  });

  it('refuses target ids without a target type, naming targetId', () => {
    const result = p.eventsParams.safeParse({ targetId: [1] });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['targetId']]);
  });

  it('accepts 100 target ids and refuses 101', () => {
    const ids = Array.from({ length: 100 }, (_, index) => index);
    expect(p.eventsParams.parse({ targetType: 'map', targetId: ids }).targetId).toBe(ids.join(','));
    const result = p.eventsParams.safeParse({ targetType: 'map', targetId: [...ids, 100] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['targetId']);
  });

  it('refuses negative or fractional target ids, empty lists and an empty target type', () => {
    for (const bad of [
      { targetType: 'map', targetId: [-1] },
      { targetType: 'map', targetId: [1.5] },
      { targetType: 'map', targetId: [] },
      { targetType: '', targetId: [1] },
      { targetType: '   ' },
      { types: [] },
      { types: ['map.deleted'] },
      { types: 'map.featured' },
      { after: -1 },
      { limit: 0 },
      { limit: 101 },
      { cursor: 3 },
    ]) {
      expect(accepts(p.eventsParams, bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('keeps the ids in order for any list of 1 to 100 ids', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 100 }), (ids) => {
        expect(p.eventsParams.parse({ targetType: 'map', targetId: ids }).targetId).toBe(ids.join(','));
      }),
    );
  });
});

describe('other rules', () => {
  it('hostname is a required non-empty string', () => {
    expect(p.hostname.parse('krunker.io')).toBe('krunker.io');
    for (const bad of ['', ' ', undefined, 3]) expect(accepts(p.hostname, bad)).toBe(false);
  });

  it('a player board cannot reach the routes that share its prefix', () => {
    expect(p.board.parse('kills')).toBe('kills');
    for (const bad of ['player_clan', 'raids', 'krunkcup', 'a/b', '../x', ''])
      expect(accepts(p.board, bad)).toBe(false);
  });

  it('paramKeys lists the keys under the transform', () => {
    expect(p.paramKeys(p.eventsParams).sort()).toEqual(['after', 'limit', 'targetId', 'targetType', 'types']);
    expect(p.paramKeys(p.params({ clanId: p.id, day: p.turfDay }))).toEqual(['clanId', 'day']);
    expect(p.paramKeys(p.noParams)).toEqual([]);
  });
});
