// The daemon wire: what the CLI forwards, what a daemon decodes, and the promise that the
// fast path and the full path parse every option of the table identically.
import { fastOptions, readCommandLine } from '../src/argv';
import { OPTION_TABLE, VERB_TABLE, type OptionSpec } from '../src/table';
import { decodeWire, encodeWire, forwardedWire, SERVED_VERBS, WIRE_KEYS, type WireOptions } from '../src/wire';

const OPTIONS: readonly OptionSpec[] = OPTION_TABLE;

/** A valid value of each value option, as typed and as parsed. */
function sample(o: OptionSpec): { typed: string; parsed: string | number } {
  if (o.choices !== undefined)
    return { typed: o.choices[o.choices.length - 1], parsed: o.choices[o.choices.length - 1] };
  if (o.type === 'number') return { typed: '7', parsed: 7 };
  return { typed: `v-${o.key}`, parsed: `v-${o.key}` };
}

describe('the wire', () => {
  it('carries these keys, and the table serves these verbs', () => {
    expect([...WIRE_KEYS].sort()).toEqual([
      'alsoJson',
      'budget',
      'cache',
      'context',
      'format',
      'limit',
      'member',
      'noDaemon',
      'noWorkspace',
      'root',
      'scopes',
      'workspace',
    ]);
    expect([...SERVED_VERBS].sort()).toEqual([
      'blame',
      'ctx',
      'diff',
      'hist',
      'map',
      'more',
      'refs',
      'search',
      'show',
      'since',
      'status',
    ]);
    expect(VERB_TABLE.filter((v) => v.served).map((v) => v.name)).toEqual([...SERVED_VERBS]);
  });

  it('round-trips every field', () => {
    const full: WireOptions = {
      root: '/r',
      cache: '/c',
      workspace: '/w/trufflepig.workspace.toml',
      member: 'api',
      budget: 0,
      limit: 1,
      context: 10,
      format: 'json',
      scopes: 'per_source',
      noWorkspace: true,
      alsoJson: true,
      noDaemon: true,
    };
    const map = encodeWire(full);
    expect(Object.keys(map).sort()).toEqual([...WIRE_KEYS].sort());
    expect(decodeWire(JSON.parse(JSON.stringify(map)))).toEqual(full);
    expect(decodeWire(encodeWire({ format: 'lines' }))).toEqual({ format: 'lines' });
  });

  it('leaves out undefined and false, and decodes only well-typed values', () => {
    expect(encodeWire({ format: 'lines', root: undefined, noWorkspace: false, alsoJson: false })).toEqual({
      format: 'lines',
    });
    expect(decodeWire({})).toEqual({ format: 'lines' });
    expect(
      decodeWire({
        format: 'xml',
        scopes: 'all',
        root: 5,
        budget: '5',
        noWorkspace: 'true',
        alsoJson: 1,
        noDaemon: false,
        unknown: 'x',
      }),
    ).toEqual({ format: 'lines' });
    expect(decodeWire({ format: 'json', scopes: 'shared', budget: 3 })).toEqual({
      format: 'json',
      scopes: 'shared',
      budget: 3,
    });
  });

  it('forwards what a CLI call forwards: never workspace, noDaemon or help', () => {
    const line = readCommandLine([
      '--no-daemon',
      '--workspace',
      'w',
      '--root',
      'r',
      '-b',
      '5',
      '--json',
      'search',
      'x',
    ]);
    if (line.kind !== 'run') throw new Error('not a run');
    expect(forwardedWire(line.options)).toEqual({ root: 'r', budget: 5, format: 'json' });
    expect(
      forwardedWire({
        format: 'lines',
        noWorkspace: true,
        member: 'm',
        scopes: 'shared',
        limit: 2,
        context: 1,
        cache: 'c',
      }),
    ).toEqual({ format: 'lines', noWorkspace: true, member: 'm', scopes: 'shared', limit: 2, context: 1, cache: 'c' });
  });
});

describe('every option of the table parses on the fast path and the full path identically', () => {
  for (const o of OPTIONS) {
    for (const spelling of [o.long, ...(o.short !== undefined ? [o.short] : [])]) {
      it(spelling, () => {
        const value = o.type === 'boolean' ? [] : [sample(o).typed];
        const line = readCommandLine([spelling, ...value, 'search', 'x']);
        if (o.key === 'help' || o.key === 'version') {
          expect(line.kind).toBe(o.key);
          expect(fastOptions(line)).toBeUndefined();
          return;
        }
        if (line.kind !== 'run') throw new Error(`${spelling}: ${JSON.stringify(line)}`);
        // The full path's value.
        const expected = o.type === 'boolean' ? (o.sets ?? true) : sample(o).parsed;
        expect(line.options[o.key]).toEqual(expected);
        // The same option written as --long=VALUE, and after the verb, parses the same.
        if (o.type !== 'boolean') {
          expect(readCommandLine([`${o.long}=${sample(o).typed}`, 'search', 'x'])).toMatchObject({
            options: line.options,
          });
        }
        expect(readCommandLine(['search', 'x', spelling, ...value])).toMatchObject({
          options: line.options,
          words: ['x'],
        });
        const fast = fastOptions(line);
        if (o.key === 'noDaemon' && expected === true) {
          // --no-daemon never takes the fast path.
          expect(fast).toBeUndefined();
          return;
        }
        expect(fast).toBeDefined();
        // The fast path's request is the full path's, field for field.
        expect(forwardedWire(fast ?? {})).toEqual(forwardedWire(line.options));
        // And what the daemon decodes gives the value back.
        if (o.wire?.forwarded) {
          const decoded = decodeWire(forwardedWire(line.options)) as unknown as Record<string, unknown>;
          expect(decoded[o.wire.key]).toEqual(expected);
        }
        if (o.key === 'workspace') expect(fast?.workspace).toBe(expected);
      });
    }
  }
});
