import type { IncomingMessage } from 'node:http';
import { RestError } from './errors.ts';
import { isRecord } from './state.ts';

export interface UploadedFile {
  /** The index in `files[n]`, matched against `attachments[].id`; null for other field names. */
  index: number | null;
  filename: string;
  contentType: string | null;
  bytes: Buffer;
}

export interface RequestBody {
  json: unknown;
  files: UploadedFile[];
}

const maxRequestBytes = 100 * 1024 * 1024;

export function readRaw(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxRequestBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) reject(new RestError(413, 40005));
      else resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

/** JSON bodies, and multipart bodies the way discord.js sends files: `payload_json` plus `files[n]`. */
export function parseBody(raw: Buffer, contentType: string | undefined): RequestBody {
  const type = (contentType ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data')) {
    const files: UploadedFile[] = [];
    let json: unknown = undefined;
    const fields: Record<string, string> = {};
    for (const part of multipartParts(raw, contentType ?? '')) {
      if (part.filename === null) {
        const text = part.bytes.toString('utf8');
        if (part.name === 'payload_json') json = parseJson(text);
        else fields[part.name] = text;
        continue;
      }
      const match = /^files\[(\d+)\]$/.exec(part.name);
      files.push({
        index: match?.[1] === undefined ? null : Number(match[1]),
        filename: part.filename,
        contentType: part.contentType,
        bytes: part.bytes,
      });
    }
    if (json === undefined) json = fields;
    else if (isRecord(json)) json = { ...fields, ...json };
    return { json, files };
  }
  if (raw.length === 0) return { json: undefined, files: [] };
  return { json: parseJson(raw.toString('utf8')), files: [] };
}

interface Part {
  name: string;
  filename: string | null;
  contentType: string | null;
  bytes: Buffer;
}

function multipartParts(raw: Buffer, contentType: string): Part[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const marker = boundary?.[1] ?? boundary?.[2];
  if (marker === undefined) throw new RestError(400, 50035, 'Invalid Form Body');
  const delimiter = Buffer.from(`--${marker}`);
  const parts: Part[] = [];
  let cursor = raw.indexOf(delimiter);
  if (cursor < 0) throw new RestError(400, 50035, 'Invalid Form Body');
  for (;;) {
    cursor += delimiter.length;
    if (raw.subarray(cursor, cursor + 2).toString() === '--') break;
    cursor += 2;
    const next = raw.indexOf(delimiter, cursor);
    if (next < 0) throw new RestError(400, 50035, 'Invalid Form Body');
    const part = raw.subarray(cursor, next - 2);
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) throw new RestError(400, 50035, 'Invalid Form Body');
    const headers = part.subarray(0, split).toString('utf8');
    const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) throw new RestError(400, 50035, 'Invalid Form Body');
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1] ?? null;
    const type = /content-type:\s*([^\r\n]*)/i.exec(headers)?.[1]?.trim() ?? null;
    parts.push({
      name,
      filename,
      contentType: type === '' ? null : type,
      bytes: Buffer.from(part.subarray(split + 4)),
    });
    cursor = next;
  }
  return parts;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RestError(400, 50109);
  }
}
