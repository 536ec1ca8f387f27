import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../src/i18n/index.ts';
import { text } from '../../src/render/common.ts';
import {
  renderMapFeatured,
  renderMapUnfeatured,
  renderTurfDaily,
  renderTurfOwnerChange,
} from '../../src/announcements/render-posts.ts';
import {
  renderSubscribed,
  renderSubscriptionList,
  renderUnsubscribed,
  type SubscriptionView,
} from '../../src/announcements/render-subscriptions.ts';
import {
  LONG,
  NASTY,
  embedText,
  expectSafe,
  translations,
  translators,
  useSandboxApi,
} from '../support/render.ts';

/** Announcement and subscription replies, from sandbox data and from extreme inputs, in every locale. */
const { en } = translators;
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
/** The role the announcements ping: the one mention they may carry. */
const ROLE_PING = { mentions: ['<@&555>'] } as const;

const live = useSandboxApi({ now: () => NOW });

describe('featured map announcements', () => {
  it('render every map event of the sandbox feed, in English and in another locale', async () => {
    const page = await live.client.call('events', { after: 0, limit: 100 });
    expect(page.events.length).toBeGreaterThan(10);
    const de = translations.for('de');
    for (const event of page.events) {
      const map = {
        mapId: event.data?.map_id,
        mapName: event.data?.map_name,
        creator: event.data?.creator,
        featuredAt: Date.parse(event.created_at ?? ''),
      };
      for (const t of [en, de]) {
        const payload =
          event.type === 'map.featured'
            ? renderMapFeatured(t, map, '555')
            : renderMapUnfeatured(t, map, map.featuredAt + 3_600_000);
        expectSafe(payload, ROLE_PING);
        expect(payload.embeds?.[0]?.title?.length).toBeGreaterThan(0);
      }
    }
  });

  it('keeps the role ping in the content only, and none without a role', () => {
    const map = { mapId: 1, mapName: 'Citadel', creator: 'MapMaker', featuredAt: NOW };
    expect(renderMapFeatured(en, map, '555').content).toBe('<@&555>');
    expect(renderMapFeatured(en, map).content).toBeUndefined();
    expect(embedText(renderMapFeatured(en, map, '555'))).not.toContain('555');
  });

  it('survives hostile, very long and missing fields', () => {
    const payloads = [
      renderMapFeatured(en, { mapId: 1, mapName: NASTY, creator: NASTY, featuredAt: NOW }, '555'),
      renderMapFeatured(en, { mapId: 1, mapName: LONG, creator: LONG, featuredAt: NOW }),
      renderMapFeatured(en, { featuredAt: NOW }),
      renderMapUnfeatured(en, { mapId: 9, featuredAt: NOW }, NOW + 1),
      renderMapUnfeatured(en, { mapId: 1, mapName: NASTY, creator: LONG, featuredAt: NOW }, NOW + 1),
    ];
    for (const payload of payloads) expectSafe(payload, ROLE_PING);
    expect(payloads[2]?.embeds?.[0]?.title).toBe('⭐ Featured map: Unknown');
    expect(payloads[3]?.embeds?.[0]?.description).toContain('unknown creator');
  });
});

describe('turf announcements', () => {
  it('render the sandbox turf status owners as changes, and daily earnings, in every locale', async () => {
    const status = await live.client.call('turfStatus', {});
    const owners = status.maps.map((m) =>
      m.owner ? { clanId: m.owner.clan_id, clanName: m.owner.clan_name } : null,
    );
    for (const locale of LOCALES) {
      const t = translations.for(locale);
      status.maps.forEach((map, index) => {
        const current = owners[index] ?? null;
        const previous = owners[(index + 1) % owners.length] ?? null;
        expectSafe(
          renderTurfOwnerChange(t, { mapId: map.map_id, day: status.day, previous, current, at: NOW }),
          ROLE_PING,
        );
        if (current) {
          expectSafe(
            renderTurfOwnerChange(t, { mapId: map.map_id, previous, current, at: NOW, clan: current }),
            ROLE_PING,
          );
          expectSafe(renderTurfDaily(t, { clan: current, day: 249, kr: 12_000 }), ROLE_PING);
        }
      });
      expectSafe(renderTurfDaily(t, { clan: { clanId: 1, clanName: NASTY }, day: 249, kr: 0 }), ROLE_PING);
    }
  });

  it('names unknown maps by id and tells every kind of change', () => {
    const a = { clanId: 1, clanName: NASTY };
    const b = { clanId: 2, clanName: LONG };
    const cases = [
      renderTurfOwnerChange(en, { mapId: 99, previous: a, current: b, at: NOW }),
      renderTurfOwnerChange(en, { mapId: 0, previous: null, current: b, at: NOW }),
      renderTurfOwnerChange(en, { mapId: 3, previous: a, current: null, at: NOW, clan: a }),
      renderTurfOwnerChange(en, { mapId: 3, previous: null, current: null, at: NOW }),
    ];
    for (const payload of cases) expectSafe(payload, ROLE_PING);
    expect(cases[0]?.embeds?.[0]?.title).toBe('Turf wars: Map 99 changed hands');
    expect(cases[1]?.embeds?.[0]?.description).toContain('nobody held it before');
    expect(cases[2]?.embeds?.[0]?.title).toContain('lost Subzero');
  });
});

describe('subscription replies', () => {
  const view = (i: number, disabled = false): SubscriptionView => ({
    id: `id${String(i).padStart(4, '0')}`,
    kind: i % 2 === 0 ? 'maps' : 'turf',
    channelId: `2000000000000000${String(i).padStart(2, '0')}`,
    // Details arrive escaped, as the subscription kinds write them.
    details: i % 2 === 0 ? 'Pings <@&555>' : `Clan ${text(NASTY, 64)}`,
    createdAt: NOW,
    state: disabled
      ? { status: 'disabled', reason: 'missingAccess', code: 50001, at: NOW }
      : { status: 'active' },
  });

  it('list nothing, one, and the most a server can have, in every locale', () => {
    for (const locale of LOCALES) {
      const t = translations.for(locale);
      expectSafe(renderSubscriptionList(t, []), ROLE_PING);
      expectSafe(renderSubscriptionList(t, [view(1, true)]), ROLE_PING);
      const full = renderSubscriptionList(
        t,
        Array.from({ length: 25 }, (_, i) => view(i, i % 3 === 0)),
      );
      expectSafe(full, ROLE_PING);
      expect(full.embeds?.[0]?.fields).toHaveLength(25);
      expect(full.ephemeral).toBe(true);
      expectSafe(renderSubscribed(t, view(2), 'created', ['A note']), ROLE_PING);
      expectSafe(renderSubscribed(t, view(3), 'updated'), ROLE_PING);
      expectSafe(renderUnsubscribed(t, view(4)), ROLE_PING);
    }
  });

  it('say why a subscription is disabled', () => {
    const shown = embedText(renderSubscriptionList(en, [view(1, true)]));
    expect(shown).toContain('I can no longer see the channel');
    expect(shown).toContain(`<t:${NOW / 1000}:R>`);
  });
});
