const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsigned-looking JWT for local checks (the signature part is not verified locally). */
export function makeJwt(header: object, payload: object): string {
  return `${b64(header)}.${b64(payload)}.c2lnbmF0dXJl`;
}
