import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Store } from '../../store/index.ts';
import { MAX_ROLES_PER_RULE, RULE_KINDS, type RoleRule } from './rules.ts';

/**
 * A rule waiting for its author's confirmation (it names a dangerous role): kept in the key-value store,
 * not in `role_rules`, until confirmed, and gone after {@link PENDING_RULE_MS} whatever happens.
 */
export const PENDING_RULE_MS = 10 * 60_000;

const PendingSchema = z.object({
  guildId: z.string().regex(/^\d{1,20}$/),
  kind: z.enum(RULE_KINDS),
  params: z.object({
    clan: z.string().max(100).optional(),
    threshold: z.number().int().min(0).max(100_000).optional(),
    region: z.number().int().optional(),
  }),
  roleIds: z
    .array(z.string().regex(/^\d{1,20}$/))
    .min(1)
    .max(MAX_ROLES_PER_RULE),
  createdBy: z.string().regex(/^\d{1,20}$/),
  createdAt: z.number(),
});

export type PendingRule = Omit<RoleRule, 'id' | 'state'>;

export class PendingRules {
  readonly #store: Store;

  constructor(store: Store) {
    this.#store = store;
  }

  get #ns() {
    return this.#store.namespace('role-rule-pending');
  }

  /** Keeps the rule; returns the key its confirm button carries. */
  async put(rule: PendingRule): Promise<string> {
    const key = randomBytes(12).toString('base64url');
    await this.#ns.set(key, rule, PENDING_RULE_MS);
    return key;
  }

  async get(key: string): Promise<PendingRule | undefined> {
    const parsed = PendingSchema.safeParse(await this.#ns.get(key));
    if (!parsed.success) return undefined;
    const { params, ...rest } = parsed.data;
    return {
      ...rest,
      params: {
        ...(params.clan === undefined ? {} : { clan: params.clan }),
        ...(params.threshold === undefined ? {} : { threshold: params.threshold }),
        ...(params.region === undefined ? {} : { region: params.region }),
      },
    };
  }

  async drop(key: string): Promise<void> {
    await this.#ns.delete(key);
  }
}
