/** Discord's JSON error codes the stand-in answers with, and their messages as Discord words them. */
export const errorMessages: Readonly<Record<number, string>> = {
  0: 'Unknown Error',
  10003: 'Unknown Channel',
  10004: 'Unknown Guild',
  10007: 'Unknown Member',
  10008: 'Unknown Message',
  10011: 'Unknown Role',
  10013: 'Unknown User',
  10015: 'Unknown Webhook',
  10062: 'Unknown interaction',
  10063: 'Unknown application command',
  30032: 'Maximum number of application commands reached',
  40005: 'Request entity too large',
  40060: 'Interaction has already been acknowledged.',
  50001: 'Missing Access',
  50005: 'Cannot edit a message authored by another user',
  50006: 'Cannot send an empty message',
  50007: 'Cannot send messages to this user',
  50013: 'Missing Permissions',
  50027: 'Invalid Webhook Token',
  50035: 'Invalid Form Body',
  50041: 'Invalid API version provided',
  50109: 'The request body contains invalid JSON.',
};

/** A nested Discord form-error tree: `{ content: { _errors: [{ code, message }] } }`. */
export interface FormErrors {
  [key: string]: FormErrors | Array<{ code: string; message: string }>;
}

export interface FormIssue {
  path: Array<string | number>;
  code: string;
  message: string;
}

export function formErrors(issues: readonly FormIssue[]): FormErrors {
  const root: FormErrors = {};
  for (const issue of issues) {
    let node = root;
    for (const key of issue.path) {
      const existing = node[String(key)];
      if (existing && !Array.isArray(existing)) {
        node = existing;
      } else {
        const next: FormErrors = {};
        node[String(key)] = next;
        node = next;
      }
    }
    const list = node._errors;
    const entry = { code: issue.code, message: issue.message };
    if (Array.isArray(list)) list.push(entry);
    else node._errors = [entry];
  }
  return root;
}

/** An error reply: HTTP status plus Discord's JSON body `{ message, code, errors? }`. */
export class RestError extends Error {
  readonly status: number;
  readonly code: number;
  readonly errors: FormErrors | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly extra: Readonly<Record<string, unknown>>;

  constructor(
    status: number,
    code: number,
    message?: string,
    options: { errors?: FormErrors; headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(message ?? errorMessages[code] ?? `${status}: ${httpStatusText(status)}`);
    this.name = 'RestError';
    this.status = status;
    this.code = code;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }

  body(): Record<string, unknown> {
    return {
      message: this.message,
      code: this.code,
      ...(this.errors ? { errors: this.errors } : {}),
      ...this.extra,
    };
  }
}

export function invalidForm(issues: readonly FormIssue[]): RestError {
  return new RestError(400, 50035, undefined, { errors: formErrors(issues) });
}

export function httpStatusText(status: number): string {
  const texts: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    405: 'Method Not Allowed',
    413: 'Payload Too Large',
    429: 'Too Many Requests',
    500: 'Internal Server Error',
    502: 'Bad Gateway',
    503: 'Service Unavailable',
    504: 'Gateway Timeout',
  };
  return texts[status] ?? 'Error';
}
