import { DiscordAPIError, HTTPError } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { classifyFailure } from '../../src/announcements/delivery.ts';
import { ANNOUNCEMENT_KINDS, KindRegistry } from '../../src/kinds.ts';
import type { AnnouncementKind } from '../../src/announcements/kinds/kind.ts';
import { mapsKind } from '../../src/features/maps/kind.ts';
import { turfKind } from '../../src/features/turf/kind.ts';
import {
  TURF_DAILY_EVENT,
  TURF_OWNER_EVENT,
  type AnnouncementEvent,
  type Subscription,
} from '../../src/announcements/model.ts';
import { fromApiEvent } from '../../src/announcements/sources.ts';
import { Translations } from '../../src/i18n/index.ts';

/** The subscription kinds' pure rules: which events reach which subscription, and what they post. */
const t = new Translations().for('en-US');
const registry = new KindRegistry(ANNOUNCEMENT_KINDS);
const targets = registry.targets.bind(registry);
const isWanted = registry.isWanted.bind(registry);
const eventTypesFor = registry.eventTypesFor.bind(registry);
const NOW = Date.UTC(2026, 10, 21, 12, 0, 30, 500);

function subscription(fields: Partial<Subscription> & Pick<Subscription, 'kind'>): Subscription {
  return {
    id: 'abc234',
    guildId: '100000000000000001',
    channelId: '200000000000000001',
    options: {},
    locale: 'en-US',
    createdBy: '1',
    createdAt: NOW,
    since: NOW,
    state: { status: 'active' },
    ...fields,
  };
}

function mapEvent(type: 'map.featured' | 'map.unfeatured', at: number, id = 1234): AnnouncementEvent {
  return fromApiEvent(
    {
      id,
      type,
      created_at: new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      target: { type: 'map', id: 42 },
      data: { map_id: 42, map_name: 'Citadel', creator: 'MapMaker' },
    },
    at,
  );
}

function turfChange(previous: number | null, current: number | null): AnnouncementEvent {
  const clan = (id: number | null) => (id === null ? null : { clanId: id, clanName: `Clan ${id}` });
  return {
    key: `turf:1:${previous}:${current}`,
    source: 'turf',
    type: TURF_OWNER_EVENT,
    at: NOW + 60_000,
    data: { mapId: 2, day: 250, previous: clan(previous), current: clan(current) },
  };
}

describe('from now on', () => {
  const maps = subscription({ kind: 'maps' });

  it('never targets an event from before the subscription, counting its own second in', () => {
    expect(targets(mapEvent('map.featured', NOW - 1_000), maps)).toBe(false);
    // The feed gives whole seconds: 12:00:30 is the subscription's own second (12:00:30.500).
    expect(targets(mapEvent('map.featured', NOW - 500), maps)).toBe(true);
    expect(targets(mapEvent('map.featured', NOW + 5_000), maps)).toBe(true);
  });

  it('never targets a disabled subscription', () => {
    const disabled = subscription({
      kind: 'maps',
      state: { status: 'disabled', reason: 'unknownChannel', code: 10003, at: NOW },
    });
    expect(targets(mapEvent('map.featured', NOW + 5_000), disabled)).toBe(false);
    expect(isWanted(mapEvent('map.featured', NOW + 5_000), [disabled])).toBe(false);
    expect(isWanted(mapEvent('map.featured', NOW + 5_000), [disabled, maps])).toBe(true);
  });
});

describe('maps', () => {
  const kind = mapsKind;

  it('asks the events feed for both map event types, sorted, only while a map subscription exists', () => {
    expect(eventTypesFor([subscription({ kind: 'maps' }), subscription({ kind: 'maps' })])).toEqual([
      'map.featured',
      'map.unfeatured',
    ]);
    expect(eventTypesFor([subscription({ kind: 'turf' })])).toEqual([]);
  });

  it('posts a featured map, remembering the message, and edits it when unfeatured', () => {
    const featured = kind.plan(mapEvent('map.featured', NOW + 1_000), subscription({ kind: 'maps' }), t);
    expect(featured).toMatchObject({ action: 'post', remember: 'map:42' });
    expect(featured?.action === 'post' && featured.pingRoles).toBeUndefined();
    const unfeatured = kind.plan(mapEvent('map.unfeatured', NOW + 9_000), subscription({ kind: 'maps' }), t);
    expect(unfeatured).toMatchObject({ action: 'edit', ref: 'map:42', forget: true });
    if (unfeatured?.action !== 'edit') throw new Error('expected an edit');
    const edited = unfeatured.render({ messageId: '1', channelId: '2', eventKey: 'e:1', at: NOW + 1_000 });
    expect(edited.embeds?.[0]?.title).toBe('No longer featured: Citadel');
    expect(edited.content).toBe('');
  });

  it('pings only the subscription’s role', () => {
    const plan = kind.plan(
      mapEvent('map.featured', NOW),
      subscription({ kind: 'maps', options: { roleId: '555' } }),
      t,
    );
    expect(plan).toMatchObject({ action: 'post', pingRoles: ['555'] });
    expect(plan?.action === 'post' && plan.payload.content).toBe('<@&555>');
  });

  it('skips an event without a map', () => {
    const odd: AnnouncementEvent = {
      ...mapEvent('map.featured', NOW),
      data: { id: 1, type: 'map.featured' },
    };
    expect(kind.plan(odd, subscription({ kind: 'maps' }), t)).toBeUndefined();
  });
});

describe('turf', () => {
  const kind = turfKind;
  const everything = subscription({ kind: 'turf' });
  const clan7 = subscription({ kind: 'turf', options: { clanId: 7, clanName: 'Clan 7' } });

  it('gives a subscription without a clan every owner change, and one with a clan only its own', () => {
    expect(kind.accepts(turfChange(3, 4), everything)).toBe(true);
    expect(kind.accepts(turfChange(3, 4), clan7)).toBe(false);
    expect(kind.accepts(turfChange(7, 4), clan7)).toBe(true);
    expect(kind.accepts(turfChange(null, 7), clan7)).toBe(true);
    expect(kind.accepts(mapEvent('map.featured', NOW), everything)).toBe(false);
  });

  it('tells a clan’s change as its gain or its loss', () => {
    const gain = kind.plan(turfChange(3, 7), clan7, t);
    const loss = kind.plan(turfChange(7, null), clan7, t);
    expect(gain?.action === 'post' && gain.payload.embeds?.[0]?.title).toBe('Clan 7 took Sandstorm');
    expect(loss?.action === 'post' && loss.payload.embeds?.[0]?.title).toBe('Clan 7 lost Sandstorm');
  });

  it('gives the daily summary only to that clan’s subscriptions', () => {
    const daily: AnnouncementEvent = {
      key: 'turf-day:249:7',
      source: 'turf',
      type: TURF_DAILY_EVENT,
      at: NOW + 1,
      data: { day: 249, clanId: 7, clanName: 'Clan 7', kr: 12_500 },
    };
    expect(kind.accepts(daily, clan7)).toBe(true);
    expect(kind.accepts(daily, everything)).toBe(false);
    const plan = kind.plan(daily, clan7, t);
    expect(plan?.action === 'post' && plan.payload.embeds?.[0]?.description).toBe(
      '**Clan 7** earned **12,500 KR** in the turf wars on day 249.',
    );
  });
});

describe('the registry', () => {
  it('has unique kind names that are valid subcommand names', () => {
    const names = ANNOUNCEMENT_KINDS.map((kind) => kind.name);
    expect(names).toEqual(['maps', 'turf', 'kpd', 'clan-log', 'track', 'remind']);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[-_a-z0-9]{1,32}$/);
  });

  it('knows only the kinds it was handed', () => {
    const onlyTurf = new KindRegistry([turfKind]);
    expect(onlyTurf.named('turf')).toBe(turfKind);
    expect(onlyTurf.named('maps')).toBeUndefined();
    // A maps subscription is nothing to a registry without the maps kind: no types fetched, nothing wanted.
    expect(onlyTurf.eventTypesFor([subscription({ kind: 'maps' })])).toEqual([]);
    expect(onlyTurf.isWanted(mapEvent('map.featured', NOW + 5_000), [subscription({ kind: 'maps' })])).toBe(
      false,
    );
    expect(onlyTurf.fromSource(subscription({ kind: 'turf' }), 'turf')).toBe(true);
  });

  it('refuses two kinds of the same name', () => {
    const twin: AnnouncementKind = { ...mapsKind, source: 'elsewhere' };
    expect(() => new KindRegistry([mapsKind, twin])).toThrow(/same name/);
  });
});

describe('classifyFailure', () => {
  const api = (status: number, code: number) =>
    new DiscordAPIError({ code, message: 'x' }, code, status, 'POST', '/channels/1/messages', {});

  it('disables on 10003, 50001 and 50013, retries 5xx and network errors, gives up on other 4xx', () => {
    expect(classifyFailure(api(404, 10003))).toEqual({ kind: 'dead', reason: 'unknownChannel', code: 10003 });
    expect(classifyFailure(api(403, 50001))).toEqual({ kind: 'dead', reason: 'missingAccess', code: 50001 });
    expect(classifyFailure(api(403, 50013))).toEqual({
      kind: 'dead',
      reason: 'missingPermissions',
      code: 50013,
    });
    expect(classifyFailure(api(404, 10008))).toEqual({ kind: 'unknownMessage' });
    expect(classifyFailure(api(400, 50035))).toEqual({ kind: 'permanent', code: 50035 });
    expect(classifyFailure(new HTTPError(502, 'Bad Gateway', 'POST', '/x', {})).kind).toBe('transient');
    expect(classifyFailure(Object.assign(new Error('reset'), { code: 'ECONNRESET' })).kind).toBe('transient');
  });
});
