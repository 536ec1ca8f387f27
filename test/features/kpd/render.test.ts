import { renderKpdCalls } from '../../support/with-ids.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { KpdCall } from '../../../src/api/schemas/index.ts';
import { decodeComponentId } from '../../../src/discord/component-id.ts';
import { KPD_CALLS_PER_PAGE, newestFirst, pageOf } from '../../../src/features/kpd/calls.ts';
import {
  contextLabel,
  renderKpdCallChanged,
  renderKpdLinked,
  renderKpdNewCall,
  renderKpdUnlinked,
  statusLabel,
  verdictLabel,
} from '../../../src/features/kpd/render.ts';
import type { ReplyPayload } from '../../../src/render/payload.ts';
import { HOSTILE, expectSafe, translators, useSandboxApi } from '../../support/render.ts';

const { en, de } = translators;
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

const live = useSandboxApi({ rateLimit: { limit: 10_000, windowMs: 60_000 } }, 'kpd');
let calls: KpdCall[];

beforeAll(async () => {
  calls = await live.client.api.kpdLatestCalls();
});

function text(payload: ReplyPayload): string {
  return JSON.stringify({ content: payload.content, embeds: payload.embeds, components: payload.components });
}

function call(overrides: Partial<KpdCall> = {}): KpdCall {
  return { ...calls[0]!, ...overrides };
}

describe('renderKpdCalls', () => {
  it('shows the sandbox calls newest first, 10 a page, ephemeral, with page buttons', () => {
    expect(calls).toHaveLength(50);
    const payload = renderKpdCalls(en, { calls, page: 1, now: NOW });
    expectSafe(payload);
    expect(payload.ephemeral).toBe(true);
    const embed = payload.embeds![0]!;
    expect(embed.fields).toHaveLength(KPD_CALLS_PER_PAGE);
    const newest = newestFirst(calls)[0]!;
    expect(embed.fields![0]!.name).toContain(`#${newest.id}`);
    expect(embed.footer?.text).toBe('50 calls · newest first');
    const buttons = payload.components![0]!.components as Array<{ custom_id: string; disabled?: boolean }>;
    expect(buttons[0]!.disabled).toBe(true);
    expect(decodeComponentId(buttons[2]!.custom_id)).toMatchObject({
      command: 'kpd',
      action: 'calls',
      args: ['2'],
    });
  });

  it('never shows the game server host, port or the internal call token', () => {
    for (let page = 1; page <= 5; page += 1) {
      const serialized = text(renderKpdCalls(en, { calls, page, now: NOW }));
      for (const c of calls) {
        expect(serialized).not.toContain(c.token!);
        expect(serialized).not.toContain(c.host!);
        expect(serialized).not.toContain(`:${c.port!}`);
      }
    }
  });

  it('labels context, status and verdict as spec 3.1 says, in the reader language', () => {
    expect([0, 1, 2, 3].map((kdf_type) => contextLabel(en, call({ kdf_type })))).toEqual([
      'Public',
      'Ranked',
      'Competitive',
      'Custom',
    ]);
    expect([1, 2, 3].map((status) => statusLabel(en, call({ status })))).toEqual([
      'Not responded',
      'Responded',
      'Reviewed',
    ]);
    expect([0, 1, 2].map((rating) => verdictLabel(en, call({ rating })))).toEqual([
      'Pending',
      'Banned',
      'Rejected',
    ]);
    expect(verdictLabel(de, call({ rating: 1 }))).toBe('Gebannt');
    expect(statusLabel(en, call({ status: 9, status_label: 'Escalated' }))).toBe('Escalated');
    expect(statusLabel(en, call({ status: 9, status_label: HOSTILE }))).not.toContain('@everyone');
    expect(contextLabel(en, call({ kdf_type: 7, kdf_type_label: '' }))).toBe('Unknown (7)');
  });

  it('sorts calls newest first even when the service sends them otherwise', () => {
    const shuffled = [...calls].reverse();
    const sorted = newestFirst(shuffled);
    expect(sorted.map((c) => c.id)).toEqual(newestFirst(calls).map((c) => c.id));
    const times = sorted.map((c) => Date.parse(c.date!));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('clamps the page to what exists and hides buttons when one page is enough', () => {
    expect(pageOf(calls, 99).page).toBe(5);
    expect(pageOf(calls, -3).page).toBe(1);
    const last = renderKpdCalls(en, { calls, page: 99, now: NOW });
    const buttons = last.components![0]!.components as Array<{ disabled?: boolean }>;
    expect(buttons[2]!.disabled).toBe(true);
    expect(renderKpdCalls(en, { calls: calls.slice(0, 3), page: 1, now: NOW }).components).toEqual([]);
  });

  it('says so when there are no calls', () => {
    const payload = renderKpdCalls(de, { calls: [], page: 1, now: NOW });
    expectSafe(payload);
    expect(payload.embeds![0]!.description).toBe('Im Moment gibt es keine Meldungen.');
  });

  it('stays within limits with hostile and very long names, guests, and missing fields', () => {
    const long = `${HOSTILE}${'W'.repeat(500)}`;
    const extreme = Array.from({ length: 50 }, (_, i) =>
      i % 3 === 0
        ? { id: i }
        : call({
            id: i,
            caller_name: long,
            called_name: i % 3 === 1 ? 'guest' : long,
            called_id: i % 3 === 1 ? 0 : 5,
            officer_name: long,
            officer_id: 3,
            kdf_type_label: long,
            status_label: long,
            rating_label: long,
            kdf_type: 99,
            status: 99,
            rating: 99,
          }),
    );
    for (const t of [en, de]) {
      for (let page = 1; page <= 5; page += 1)
        expectSafe(renderKpdCalls(t, { calls: extreme, page, now: NOW }));
    }
    const serialized = text(renderKpdCalls(en, { calls: extreme, page: 1, now: NOW }));
    expect(serialized).toContain('an unregistered guest');
  });
});

describe('link and unlink replies', () => {
  it('shows only the key prefix, ephemerally', () => {
    const payload = renderKpdLinked(en, { prefix: 'kr_ab12…', visibleCalls: 50 });
    expectSafe(payload);
    expect(payload.ephemeral).toBe(true);
    expect(payload.embeds![0]!.description).toContain('`kr_ab12…`');
    expect(payload.embeds![0]!.description).toContain('50');
  });

  it('says whether a key was removed', () => {
    for (const t of [en, de]) {
      expectSafe(renderKpdUnlinked(t, true));
      expectSafe(renderKpdUnlinked(t, false));
    }
    expect(renderKpdUnlinked(en, false).embeds![0]!.description).toBe('This server has no linked KPD key.');
  });
});

describe('announcements of /subscribe kpd', () => {
  it('post a new call and a change, not ephemeral, within limits, in two languages', () => {
    for (const t of [en, de]) {
      const created = renderKpdNewCall(t, calls[0]!);
      expectSafe(created);
      expect(created.ephemeral).toBeUndefined();
      expect(created.embeds![0]!.timestamp).toBe(new Date(Date.parse(calls[0]!.date!)).toISOString());
      expectSafe(renderKpdCallChanged(t, call({ status: 3, rating: 1 }), { status: 1, rating: 0 }));
    }
    expect(renderKpdNewCall(en, calls[0]!).embeds![0]!.title).toBe('New KPD call');
    const changed = renderKpdCallChanged(en, call({ id: 7, status: 2, rating: 0 }), { status: 1, rating: 0 });
    expect(changed.embeds![0]).toMatchObject({
      title: 'KPD call #7 changed',
      description: 'Status: Not responded → Responded',
    });
    expect(renderKpdCallChanged(de, call({ status: 3, rating: 2 }), {}).embeds![0]!.description).toBe(
      'Status: — → Geprüft\nUrteil: — → Abgelehnt',
    );
  });

  it('stay safe with hostile names and without a date', () => {
    const hostile = call({
      caller_name: HOSTILE.repeat(40),
      called_name: HOSTILE,
      officer_name: HOSTILE,
      officer_id: 1,
    });
    expectSafe(renderKpdNewCall(en, hostile));
    expectSafe(renderKpdCallChanged(en, hostile, { status: 1 }));
    expect(renderKpdNewCall(en, { id: 1, date: 'not a date' }).embeds![0]!.timestamp).toBeUndefined();
  });
});
