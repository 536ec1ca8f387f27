import { developerRoutes } from './developer.ts';
import { gameRoutes } from './game.ts';
import { tokenRoutes } from './token.ts';

// The route table: one entry per read of the spec (4.1, 4.2, 4.3). The writes of 4.6 are not here, nor
// the token tier's `/shop/...` row, which names no concrete path. Query names the spec leaves open are
// those of docs/api-shapes.md.
export const routes = { ...developerRoutes, ...gameRoutes, ...tokenRoutes };

export type Routes = typeof routes;
export type RouteName = keyof Routes;
