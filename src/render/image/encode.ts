import { deflateSync } from 'node:zlib';

/**
 * A PNG of RGBA pixels as resvg draws them (premultiplied by alpha), written here rather than by resvg's
 * `asPng`: resvg compresses with adaptive filters at a slow level, 7–15 ms of a 960×480 chart, where
 * unfiltered rows at zlib level 3 take about 2 ms and come out smaller for the flat colours of a chart
 * (54 KB against 82 KB for the price chart). Pure: the same pixels give the same bytes.
 */
export function encodePng(premultiplied: Buffer, width: number, height: number): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1)
    throw new RangeError('an image is at least 1×1 pixels');
  const stride = width * 4;
  if (premultiplied.length !== stride * height) throw new RangeError('pixels do not match the size');
  // Each row starts with its filter type, 0 (none); pixels are straight RGBA in a PNG.
  const rows = rowBuffer((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const out = y * (stride + 1);
    rows[out] = 0;
    premultiplied.copy(rows, out + 1, y * stride, (y + 1) * stride);
  }
  if (!isOpaque(premultiplied)) demultiply(rows, stride);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 3 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// The rows of the last image, kept for the next: a render thread encodes one image at a time (deflateSync
// keeps nothing of its input), and a new 1.8 MB buffer a chart was pages to fault in and external memory
// that hastens the collector, about 1 ms a draw. Up to the size of a chart or card four times over.
const KEPT_ROWS_BYTES = 8 * 1024 * 1024;
let keptRows = Buffer.alloc(0);

function rowBuffer(size: number): Buffer {
  if (size > KEPT_ROWS_BYTES) return Buffer.allocUnsafe(size);
  if (keptRows.length < size) keptRows = Buffer.allocUnsafeSlow(size);
  return keptRows.subarray(0, size);
}

/**
 * Whether every pixel is opaque (charts and the card paint a background over the whole image), so that
 * nothing needs demultiplying: the pixels ANDed four bytes at a time, in four lanes, the alpha byte of the
 * result 255 only if every alpha is. About half the time of looking at each alpha byte in turn.
 */
function isOpaque(pixels: Buffer): boolean {
  if (pixels.byteOffset % 4 !== 0) return false;
  const words = new Int32Array(pixels.buffer, pixels.byteOffset, pixels.length / 4);
  let a = -1;
  let b = -1;
  let c = -1;
  let d = -1;
  const whole = words.length - (words.length % 4);
  for (let i = 0; i < whole; i += 4) {
    a &= words[i] ?? 0;
    b &= words[i + 1] ?? 0;
    c &= words[i + 2] ?? 0;
    d &= words[i + 3] ?? 0;
  }
  for (let i = whole; i < words.length; i++) a &= words[i] ?? 0;
  // The bytes of the result in memory order, whatever the machine's byte order: the fourth is alpha.
  return new Uint8Array(Int32Array.of(a & b & c & d).buffer)[3] === 255;
}

/** Premultiplied colour back to straight colour wherever a pixel is partly transparent. */
function demultiply(rows: Buffer, stride: number): void {
  for (let row = 0; row < rows.length; row += stride + 1) {
    for (let alphaAt = row + 4; alphaAt <= row + stride; alphaAt += 4) {
      const alpha = rows[alphaAt] ?? 255;
      if (alpha === 255 || alpha === 0) continue;
      for (let channel = alphaAt - 3; channel < alphaAt; channel++) {
        rows[channel] = Math.min(255, Math.round(((rows[channel] ?? 0) * 255) / alpha));
      }
    }
  }
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.allocUnsafe(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out, 4, 8 + data.length), 8 + data.length);
  return out;
}

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 of `buffer[start, end)` as PNG chunks carry it (zlib.crc32 needs Node 20.15 or 22.2). */
function crc32(buffer: Buffer, start: number, end: number): number {
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) crc = (CRC_TABLE[(crc ^ (buffer[i] ?? 0)) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
