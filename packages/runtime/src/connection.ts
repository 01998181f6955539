// One client connection of a daemon: frames in, requests dispatched concurrently,
// replies out (each carrying its request's id, in completion order).
import type * as net from 'node:net';
import { decodeFrames, EMPTY_DECODER, encodeFrame, frameBodyBytes, type DecoderState } from './frame';
import { CONNECTION_IDLE_MS, MAX_IN_FLIGHT_PER_CONNECTION, MAX_REPLY_BYTES, MAX_REQUEST_BYTES } from './limits';
import { errorReply, oversizeReply, parseRequest, type DaemonReply, type DaemonRequest } from './protocol';

export class Connection {
  private decoder: DecoderState = EMPTY_DECODER;
  private inFlight = 0;
  private drainWaiters: (() => void)[] = [];

  constructor(
    private readonly socket: net.Socket,
    private readonly dispatch: (req: DaemonRequest) => Promise<DaemonReply>,
    /** Called once the reply to `req` has been handed to the socket. */
    private readonly afterReply: (req: DaemonRequest | undefined) => void,
    /** The daemon's version, stamped on every reply (the client's half of the handshake). */
    private readonly version: string,
  ) {
    socket.setTimeout(CONNECTION_IDLE_MS, () => {
      if (this.inFlight === 0) socket.destroy();
    });
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.settle());
  }

  get busy(): number {
    return this.inFlight;
  }

  /** Resolves when no request of this connection is in flight. */
  drained(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  destroy(): void {
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    const { state, events } = decodeFrames(this.decoder, chunk, MAX_REQUEST_BYTES);
    this.decoder = state;
    for (const event of events) {
      if (event.kind === 'oversize') {
        this.send(undefined, oversizeReply(event.length, event.head));
        continue;
      }
      const parsed = parseRequest(event.body);
      if (!parsed.ok) {
        this.send(undefined, parsed.reply);
        continue;
      }
      const req = parsed.request;
      if (this.inFlight >= MAX_IN_FLIGHT_PER_CONNECTION) {
        this.send(
          req,
          errorReply(
            req.id,
            'daemon_busy',
            `more than ${MAX_IN_FLIGHT_PER_CONNECTION} requests in flight on one connection; wait for replies first`,
          ),
        );
        continue;
      }
      this.inFlight++;
      void this.dispatch(req).then((reply) => {
        this.inFlight--;
        this.send(req, reply);
        this.settle();
      });
    }
  }

  private send(req: DaemonRequest | undefined, reply: DaemonReply): void {
    let json = JSON.stringify({ ...reply, version: this.version });
    if (frameBodyBytes(json) > MAX_REPLY_BYTES) {
      const bytes = frameBodyBytes(json);
      const refusal = errorReply(
        reply.id,
        'reply_too_large',
        `the reply is ${bytes} bytes, over the ${MAX_REPLY_BYTES}-byte limit; ask for a smaller budget or page with more`,
      );
      json = JSON.stringify({ ...refusal, version: this.version });
    }
    if (!this.socket.destroyed && this.socket.writable) {
      this.socket.write(encodeFrame(json), () => this.afterReply(req));
    } else {
      this.afterReply(req);
    }
  }

  private settle(): void {
    if (this.inFlight === 0) for (const w of this.drainWaiters.splice(0)) w();
  }
}
