/**
 * An error meant for the user: `key` names the localized text (`common:errors.*` or a command's own),
 * `vars` fill it. The interaction handler turns it into an ephemeral reply; nothing is logged as a fault.
 */
export class UserError extends Error {
  constructor(
    readonly key: string,
    readonly vars: Record<string, unknown> = {},
  ) {
    super(key);
    this.name = 'UserError';
  }
}
