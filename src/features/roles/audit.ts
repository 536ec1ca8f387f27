import type { RoleRule } from './rules.ts';

/** Discord keeps 512 characters of an audit-log reason. */
export const AUDIT_REASON_MAX = 512;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const CONTROL = /\p{Cc}/gu;

/**
 * A reason Discord accepts and the REST client can send (it percent-encodes the header, which throws on a
 * lone surrogate): lone surrogates become U+FFFD, control characters a space, and the text is cut to
 * {@link AUDIT_REASON_MAX} code points (never inside a pair).
 */
export function wellFormedReason(text: string): string {
  const clean = text.replace(LONE_SURROGATE, '\uFFFD').replace(CONTROL, ' ');
  let out = '';
  let count = 0;
  for (const char of clean) {
    if (count === AUDIT_REASON_MAX) break;
    out += char;
    count += 1;
  }
  return out;
}

/** The audit-log reason of a change: the rule, named. */
export function ruleReason(rule: RoleRule): string {
  const what =
    rule.kind === 'verified'
      ? 'verified account'
      : rule.kind === 'clan'
        ? `clan ${rule.params.clan ?? '?'}`
        : rule.kind === 'ranked'
          ? `ranked MMR ≥ ${rule.params.threshold ?? '?'}${rule.params.region === undefined ? '' : ` in region ${rule.params.region}`}`
          : `level ≥ ${rule.params.threshold ?? '?'}`;
  return wellFormedReason(`killfeed role rule ${rule.id} (${what})`);
}
