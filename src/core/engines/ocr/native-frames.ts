/**
 * Framing between the native engine and its tesseract hosts (native-host.ts): each message is a 4-byte
 * little-endian length, a JSON header of that length, then `header.bytes` bytes of payload (grey pixels one way,
 * TSV text the other). No dependencies: the host process loads nothing but this and bun:ffi.
 */

export interface FrameHeader {
  /** Payload bytes after the header. */
  bytes: number;
  [key: string]: unknown;
}

export function encodeFrame(header: FrameHeader, payload: Uint8Array): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(4 + json.length + payload.length);
  new DataView(out.buffer).setUint32(0, json.length, true);
  out.set(json, 4);
  out.set(payload, 4 + json.length);
  return out;
}

/**
 * Collects stream chunks and hands out whole frames. Chunks are kept as they came and copied once into a frame's
 * payload: a page is megabytes in 64 KiB chunks, and joining them as they arrive would copy it hundreds of times.
 */
export class FrameReader {
  private chunks: Uint8Array[] = [];
  private length = 0;
  private header: FrameHeader | null = null;

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** The next complete frame, or null until more bytes arrive. */
  next(): { header: FrameHeader; payload: Uint8Array } | null {
    if (!this.header) {
      if (this.length < 4) return null;
      const size = new DataView(this.peek(4).buffer).getUint32(0, true);
      if (this.length < 4 + size) return null;
      this.take(4);
      const header = JSON.parse(new TextDecoder().decode(this.take(size))) as FrameHeader;
      if (!Number.isInteger(header.bytes) || header.bytes < 0) throw new Error("bad frame header");
      this.header = header;
    }
    if (this.length < this.header.bytes) return null;
    const header = this.header;
    this.header = null;
    return { header, payload: this.take(header.bytes) };
  }

  private peek(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let at = 0;
    for (const c of this.chunks) {
      const part = c.subarray(0, n - at);
      out.set(part, at);
      at += part.length;
      if (at === n) break;
    }
    return out;
  }

  private take(n: number): Uint8Array {
    const first = this.chunks[0];
    if (first && first.length >= n) {
      // The common small case (headers) and a frame inside one chunk: no copy.
      const out = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
      this.length -= n;
      return out;
    }
    const out = new Uint8Array(n);
    let at = 0;
    while (at < n) {
      const c = this.chunks[0]!;
      const part = c.subarray(0, n - at);
      out.set(part, at);
      at += part.length;
      if (part.length === c.length) this.chunks.shift();
      else this.chunks[0] = c.subarray(part.length);
    }
    this.length -= n;
    return out;
  }
}
