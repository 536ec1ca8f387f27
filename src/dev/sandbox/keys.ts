import { Rng, hashSeed } from './prng.ts';

export type Scope = 'kpd' | 'events.maps';

export interface ApiKey {
  /** Which of the sandbox's keys this is (for logs and tests; never the key's value). */
  readonly label: 'default' | 'kpd' | 'noScopes' | 'revoked';
  readonly value: string;
  readonly scopes: readonly Scope[];
  readonly revoked: boolean;
}

export interface SandboxKeys {
  readonly default: string;
  readonly kpd: string;
  readonly noScopes: string;
  readonly revoked: string;
}

/** The four developer keys, derived from the seed so a `.env` written once keeps working. */
export class KeyRing {
  readonly #byValue = new Map<string, ApiKey>();
  readonly values: SandboxKeys;

  constructor(seed: number) {
    const rng = new Rng(hashSeed(seed, 'keys'));
    const make = (label: ApiKey['label'], scopes: readonly Scope[], revoked = false): string => {
      const value = `kr_${rng.token(40, '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ')}`;
      this.#byValue.set(value, { label, value, scopes, revoked });
      return value;
    };
    this.values = {
      default: make('default', ['events.maps']),
      kpd: make('kpd', ['kpd', 'events.maps']),
      noScopes: make('noScopes', []),
      revoked: make('revoked', ['events.maps'], true),
    };
  }

  /** The key for a header value, or undefined when it is unknown or revoked. */
  find(value: string | undefined): ApiKey | undefined {
    if (value === undefined || value === '') return undefined;
    const key = this.#byValue.get(value);
    return key && !key.revoked ? key : undefined;
  }
}
