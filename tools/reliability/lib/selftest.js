'use strict';
// The checks checked: synthetic calls that each check must flag, and clean ones it must
// not, run before every experiment. A check that cannot fail would make every PASS empty.
const { checkCall } = require('./checks');

function call(fields) {
  return {
    args: ['search', 'x'],
    status: 0,
    signal: null,
    timedOut: false,
    overflow: 0,
    deadlineMs: 10000,
    stdout: Buffer.from(''),
    stderr: Buffer.from(''),
    ...fields,
  };
}

const CANARIES = ['OUTSIDEMARKselftest', 'root:x:0:0:root:/root:/bin/bash'];

const CASES = [
  ['outside', call({ stdout: Buffer.from('{"rows":[{"text":"root:x:0:0:root:/root:/bin/bash"}]}\n') })],
  ['outside', call({ stderr: Buffer.from('trufflepig: read_error: OUTSIDEMARKselftest\n'), status: 2 })],
  ['hang', call({ timedOut: true, status: null, signal: 'SIGKILL' })],
  ['stack', call({ status: 2, stderr: Buffer.from('trufflepig: internal_error: boom\n    at f (/x/y.js:1:2)\n') })],
  [
    'stack',
    call({ status: 2, stderr: Buffer.from('trufflepig: internal_error: TypeError: Cannot read properties of null\n') }),
  ],
  ['uncoded', call({ status: 1, stderr: Buffer.from('something went wrong\n') })],
  ['uncoded', call({ status: null, signal: 'SIGSEGV' })],
  [
    'budget',
    call({
      args: ['-b', '3', 'search', 'x'],
      stdout: Buffer.from('{"error":{"code":"bad_query","message":"a long message over three tokens"}}\n'),
      status: 2,
    }),
  ],
  ['budget', call({ args: ['-b', '0', 'search', 'x'], stdout: Buffer.from('x\n') })],
  ['budget', call({ overflow: 9e6, status: null, signal: 'SIGKILL' })],
  [
    'control',
    call({ stderr: Buffer.from("trufflepig: unknown verb '\x1b[31mbogus'\nUsage: trufflepig x\n"), status: 2 }),
  ],
  ['control', call({ stdout: Buffer.from('path:a\u202etxt\n') })],
  ['control', call({ stdout: Buffer.from([0x61, 0xff, 0x0a]) })],
  [null, call({ stdout: Buffer.from('{"hits":[],"query":"x\\u001b"}\n') })],
  [null, call({ status: 2, stdout: Buffer.from('{"error":{"code":"path_outside_root","message":"no"}}\n') })],
  [null, call({ status: 2, stderr: Buffer.from('trufflepig: bad_regex: re:( is not valid\n') })],
  [
    null,
    call({
      status: 2,
      stderr: Buffer.from('trufflepig: -n/--limit takes a whole number ≥ 1\nUsage: trufflepig [--root DIR]\n'),
    }),
  ],
  [null, call({ args: ['-b', '200', 'search', 'x'], stdout: Buffer.from('{"hits":[]}\n\tindented\n') })],
  [null, call({ intentionalKill: true, status: null, signal: 'SIGKILL' })],
];

/** Throws naming the first case a check got wrong. */
function selfTest() {
  for (const [want, c] of CASES) {
    const kinds = checkCall(c, CANARIES).map((f) => f.kind);
    const ok = want === null ? kinds.length === 0 : kinds.includes(want);
    if (!ok)
      throw new Error(
        `checks self-test: expected ${want || 'no failure'} for ${JSON.stringify({ ...c, stdout: c.stdout.toString(), stderr: c.stderr.toString() }).slice(0, 200)}, got [${kinds.join(', ')}]`,
      );
  }
  return CASES.length;
}

module.exports = { selfTest };
