import type { SandboxContext } from './context.ts';
import { HttpError, intParam, intQuery, notFound, type Route, type RouteRequest } from './http.ts';
import type { Role } from './jwt.ts';
import { Rng, hashSeed } from './prng.ts';
import { findPlayer } from './records.ts';
import { DAY_MS, iso } from './time.ts';
import { tokenPlayer } from './token.ts';
import type { Player } from './world/types.ts';

function requireRole(request: RouteRequest, role: Role, message = 'insufficient permissions'): void {
  if (!request.claims?.roles.includes(role)) throw new HttpError(403, message);
}

/** The staff reads of the token tier: moderators and KPD reviewers only. */
export function staffRoutes(ctx: SandboxContext): Route[] {
  const { world, index } = ctx;
  const seed = world.seed;
  const route = (pattern: string, handler: (player: Player, request: RouteRequest) => unknown): Route => ({
    pattern,
    tier: 'token',
    handler: (request) => handler(tokenPlayer(ctx, request), request),
  });
  const staffTarget = (request: RouteRequest): Player => findPlayer(index, request.params['name'] ?? '');
  return [
    route('/moderation/players/{name}/chat-ban', (_player, request) => {
      requireRole(request, 'moderator');
      const target = staffTarget(request);
      return {
        player_name: target.name,
        banned: target.banned,
        until: target.banned ? iso(world.anchorMs + 7 * DAY_MS) : null,
        reason: target.banned ? 'cheating' : '',
      };
    }),
    route('/moderation/players/{name}/reports', (_player, request) => {
      requireRole(request, 'moderator', 'not authorized');
      const target = staffTarget(request);
      return {
        player_name: target.name,
        reports: world.kpdCalls
          .filter((c) => c.called_id === target.id)
          .map((c) => ({
            id: c.id,
            date: c.date,
            caller_name: c.caller_name,
            status: c.status,
            rating: c.rating,
          })),
      };
    }),
    route('/kpd/demos', (_player, request) => {
      requireRole(request, 'kpd_reviewer');
      const off = intQuery(request.query, 'off', { min: 0, fallback: 0 });
      const q = (request.query.get('q') ?? '').toLowerCase();
      const demos = world.kpdCalls
        .filter((c) => q === '' || c.called_name.toLowerCase().includes(q))
        .map((c) => ({ id: c.id, called_name: c.called_name, date: c.date, status: c.status }));
      return { off, demos: demos.slice(off, off + 20) };
    }),
    route('/kpd/demos/{id}', (_player, request) => {
      requireRole(request, 'kpd_reviewer');
      const id = intParam(request.params['id'] ?? '', 'id');
      const call = world.kpdCalls.find((c) => c.id === id);
      if (!call) throw notFound('Demo');
      return {
        id: call.id,
        called_name: call.called_name,
        caller_name: call.caller_name,
        game_code: call.game_code,
        kdf_type: call.kdf_type,
        ticket: request.query.get('ct') ?? '',
        frames: new Rng(hashSeed(seed, 'demo', id)).int(2_000, 40_000),
      };
    }),
    route('/kpd/reviewers', (_player, request) => {
      requireRole(request, 'kpd_reviewer');
      return world.players
        .filter((p) => p.kpd)
        .map((p) => ({
          player_id: p.id,
          player_name: p.name,
          reviews: world.kpdCalls.filter((c) => c.officer_id === p.id).length,
        }));
    }),
  ];
}
