// Length-prefixed JSON frames: a 4-byte big-endian body length, then the body as UTF-8
// JSON. Pure functions: the socket code feeds chunks in and acts on the events out.
import { FRAME_HEADER_BYTES } from './limits';

/** Bytes of an oversize frame kept to recover its request id (the id is serialized first). */
export const OVERSIZE_HEAD_BYTES = 256;

export interface DecoderState {
  /** Received bytes not yet forming a whole frame. */
  readonly buffered: Buffer;
  /** Body bytes of an oversize frame still to be discarded. */
  readonly skipping: number;
  /** Declared length and first bytes of the oversize frame being discarded. */
  readonly oversize?: { readonly length: number; readonly head: Buffer };
}

export type FrameEvent =
  | { readonly kind: 'frame'; readonly body: string }
  /** A frame whose declared body length exceeds the limit; its bytes were discarded. */
  | { readonly kind: 'oversize'; readonly length: number; readonly head: string };

export const EMPTY_DECODER: DecoderState = { buffered: Buffer.alloc(0), skipping: 0 };

/** One frame holding `json`. */
export function encodeFrame(json: string): Buffer {
  const body = Buffer.from(json, 'utf8');
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, FRAME_HEADER_BYTES);
  return frame;
}

/** Body length of the frame that would hold `json`. */
export function frameBodyBytes(json: string): number {
  return Buffer.byteLength(json, 'utf8');
}

/**
 * Feed one received chunk. Whole frames come out as events in order; a partial frame
 * stays buffered; a frame declaring more than `maxBodyBytes` is discarded as it arrives
 * (never buffered) and reported once it has been skipped, so the stream stays in sync.
 */
export function decodeFrames(
  state: DecoderState,
  chunk: Buffer,
  maxBodyBytes: number,
): { state: DecoderState; events: FrameEvent[] } {
  const events: FrameEvent[] = [];
  let data = state.buffered.length ? Buffer.concat([state.buffered, chunk]) : chunk;
  let skipping = state.skipping;
  let oversize = state.oversize;
  for (;;) {
    if (skipping > 0) {
      const take = Math.min(skipping, data.length);
      if (oversize && oversize.head.length < OVERSIZE_HEAD_BYTES) {
        const more = data.subarray(0, Math.min(take, OVERSIZE_HEAD_BYTES - oversize.head.length));
        oversize = { length: oversize.length, head: Buffer.concat([oversize.head, more]) };
      }
      data = data.subarray(take);
      skipping -= take;
      if (skipping > 0) break;
      if (oversize) events.push({ kind: 'oversize', length: oversize.length, head: oversize.head.toString('utf8') });
      oversize = undefined;
      continue;
    }
    if (data.length < FRAME_HEADER_BYTES) break;
    const length = data.readUInt32BE(0);
    if (length > maxBodyBytes) {
      data = data.subarray(FRAME_HEADER_BYTES);
      skipping = length;
      oversize = { length, head: Buffer.alloc(0) };
      continue;
    }
    if (data.length < FRAME_HEADER_BYTES + length) break;
    events.push({ kind: 'frame', body: data.toString('utf8', FRAME_HEADER_BYTES, FRAME_HEADER_BYTES + length) });
    data = data.subarray(FRAME_HEADER_BYTES + length);
  }
  // Copy the remainder so a small leftover does not pin a large received chunk.
  const buffered = data.length ? Buffer.from(data) : EMPTY_DECODER.buffered;
  return { state: { buffered, skipping, ...(oversize ? { oversize } : {}) }, events };
}

/** The request id at the start of a (possibly truncated) request body, when it is there. */
export function sniffRequestId(head: string): string | undefined {
  const m = /^\s*\{\s*"id"\s*:\s*"([^"\\]{1,128})"/.exec(head);
  return m ? m[1] : undefined;
}
