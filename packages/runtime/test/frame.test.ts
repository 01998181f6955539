import {
  decodeFrames,
  EMPTY_DECODER,
  encodeFrame,
  sniffRequestId,
  type DecoderState,
  type FrameEvent,
} from '../src/frame';
import { FRAME_HEADER_BYTES, MAX_REQUEST_ARGS, MAX_REQUEST_BYTES } from '../src/limits';
import { oversizeReply, parseReply, parseRequest, serializeRequest } from '../src/protocol';

function feedAll(chunks: Buffer[], max = MAX_REQUEST_BYTES): { events: FrameEvent[]; state: DecoderState } {
  let state = EMPTY_DECODER;
  const events: FrameEvent[] = [];
  for (const c of chunks) {
    const out = decodeFrames(state, c, max);
    state = out.state;
    events.push(...out.events);
  }
  return { events, state };
}

describe('frame codec', () => {
  test('a frame is a 4-byte big-endian length and the UTF-8 body', () => {
    const frame = encodeFrame('{"a":"é"}');
    expect(frame.readUInt32BE(0)).toBe(Buffer.byteLength('{"a":"é"}'));
    expect(frame.length).toBe(FRAME_HEADER_BYTES + 10);
    expect(frame.subarray(4).toString('utf8')).toBe('{"a":"é"}');
  });

  test('a frame split at every byte comes out once, whole', () => {
    const frame = encodeFrame(JSON.stringify({ text: 'multi-byte ✓ across chunk boundaries' }));
    const chunks = [...frame].map((b) => Buffer.from([b]));
    const { events, state } = feedAll(chunks);
    expect(events).toEqual([{ kind: 'frame', body: JSON.stringify({ text: 'multi-byte ✓ across chunk boundaries' }) }]);
    expect(state.buffered.length).toBe(0);
  });

  test('several frames and a partial one in a single chunk', () => {
    const all = Buffer.concat([
      encodeFrame('1'),
      encodeFrame('"two"'),
      encodeFrame('[3]'),
      encodeFrame('{"four":4}').subarray(0, 6),
    ]);
    const first = decodeFrames(EMPTY_DECODER, all, MAX_REQUEST_BYTES);
    expect(first.events.map((e) => (e.kind === 'frame' ? e.body : e.kind))).toEqual(['1', '"two"', '[3]']);
    expect(first.state.buffered.length).toBe(6);
    const rest = decodeFrames(first.state, encodeFrame('{"four":4}').subarray(6), MAX_REQUEST_BYTES);
    expect(rest.events).toEqual([{ kind: 'frame', body: '{"four":4}' }]);
  });

  test('a body of exactly the limit passes; one byte more is skipped and reported, and the stream stays in sync', () => {
    const atLimit = 'a'.repeat(100);
    const over = `{"id":"req-7","pad":"${'b'.repeat(200)}"}`;
    const stream = Buffer.concat([encodeFrame(atLimit), encodeFrame(over), encodeFrame('"after"')]);
    // Delivered in 7-byte chunks so the skip crosses chunk boundaries.
    const chunks: Buffer[] = [];
    for (let i = 0; i < stream.length; i += 7) chunks.push(stream.subarray(i, i + 7));
    const { events } = feedAll(chunks, 100);
    expect(events[0]).toEqual({ kind: 'frame', body: atLimit });
    expect(feedAll([encodeFrame('a'.repeat(101))], 100).events).toEqual([
      { kind: 'oversize', length: 101, head: 'a'.repeat(101) },
    ]);
    expect(events[1]).toMatchObject({ kind: 'oversize', length: Buffer.byteLength(over) });
    expect(events[2]).toEqual({ kind: 'frame', body: '"after"' });
    expect(events).toHaveLength(3);
    const head = (events[1] as { head: string }).head;
    expect(sniffRequestId(head)).toBe('req-7');
    expect(oversizeReply(Buffer.byteLength(over), head)).toMatchObject({
      id: 'req-7',
      exitCode: 2,
      error: { code: 'request_too_large' },
    });
  });

  test('an oversize frame is never buffered whole', () => {
    const header = Buffer.alloc(4);
    header.writeUInt32BE(10 * 1024 * 1024, 0);
    const { state, events } = feedAll([header, Buffer.alloc(1024 * 1024)]);
    expect(events).toEqual([]);
    expect(state.buffered.length).toBe(0);
    expect(state.skipping).toBe(9 * 1024 * 1024);
  });
});

describe('request validation', () => {
  const base = {
    id: 'x1',
    verb: 'search',
    args: ['foo'],
    options: { b: 600, format: 'json', noDaemon: false },
    cwd: '/tmp',
  };

  test('a valid request round-trips, id first on the wire', () => {
    const json = serializeRequest(base);
    expect(json.startsWith('{"id":"x1"')).toBe(true);
    expect(parseRequest(json)).toEqual({ ok: true, request: base });
  });

  test(`${MAX_REQUEST_ARGS} arguments pass, ${MAX_REQUEST_ARGS + 1} answer request_too_large with the id`, () => {
    expect(parseRequest(JSON.stringify({ ...base, args: Array(MAX_REQUEST_ARGS).fill('a') })).ok).toBe(true);
    const r = parseRequest(JSON.stringify({ ...base, args: Array(MAX_REQUEST_ARGS + 1).fill('a') }));
    expect(r).toMatchObject({ ok: false, reply: { id: 'x1', exitCode: 2, error: { code: 'request_too_large' } } });
  });

  test('malformed requests answer protocol_error, naming the id when readable', () => {
    expect(parseRequest('not json')).toMatchObject({ ok: false, reply: { id: '', error: { code: 'protocol_error' } } });
    expect(parseRequest('{"id":"k","verb":"v"')).toMatchObject({
      ok: false,
      reply: { id: 'k', error: { code: 'protocol_error' } },
    });
    expect(parseRequest(JSON.stringify({ ...base, args: [1] }))).toMatchObject({
      ok: false,
      reply: { id: 'x1', error: { code: 'protocol_error' } },
    });
    expect(parseRequest(JSON.stringify({ ...base, options: { nested: {} } }))).toMatchObject({
      ok: false,
      reply: { error: { code: 'protocol_error' } },
    });
    expect(parseRequest(JSON.stringify({ ...base, id: '' }))).toMatchObject({
      ok: false,
      reply: { error: { code: 'protocol_error' } },
    });
    expect(parseRequest(JSON.stringify({ ...base, cwd: undefined }))).toMatchObject({
      ok: false,
      reply: { id: 'x1', error: { code: 'protocol_error' } },
    });
  });

  test('replies are checked by shape', () => {
    expect(parseReply('{"id":"a","stdout":"","stderr":"","exitCode":0}')).toEqual({
      id: 'a',
      stdout: '',
      stderr: '',
      exitCode: 0,
    });
    expect(parseReply('{"id":"a","stdout":""}')).toBeUndefined();
    expect(parseReply('nope')).toBeUndefined();
  });
});
