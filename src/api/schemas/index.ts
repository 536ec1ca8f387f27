export * from './developer.ts';
export * from './game.ts';
export * from './token.ts';
export { degradations } from './tolerant.ts';
export type { DegradeListener } from './tolerant.ts';
