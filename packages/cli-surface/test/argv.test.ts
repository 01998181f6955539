// The command line: the split (moved here with apps/cli/src/argv.ts), the option parse
// and its usage errors, and the fast path's options.
import {
  budgetOption,
  fastOptions,
  missingValueMessage,
  readCommandLine,
  splitArgv,
  VERB_FLAGS,
  type CommandLine,
} from '../src/argv';

const run = (argv: string[]) => {
  const line = readCommandLine(argv);
  if (line.kind !== 'run') throw new Error(`expected a run, got ${JSON.stringify(line)}`);
  return line;
};
const usage = (argv: string[]) => {
  const line = readCommandLine(argv);
  return line.kind === 'usage' ? line.message : `(${line.kind})`;
};

describe('splitArgv', () => {
  it('takes the tool options out wherever they stand and leaves every other word in order', () => {
    expect(splitArgv(['search', '-file:tests', 'sym:Foo', '-n', '5', '--json', 'bar'])).toEqual({
      options: ['-n', '5', '--json'],
      verb: 'search',
      words: ['-file:tests', 'sym:Foo', 'bar'],
      unknownOptions: [],
    });
    expect(splitArgv(['--root', 'r', '-b', '100', 'show', 'abc:1'])).toEqual({
      options: ['--root', 'r', '-b', '100'],
      verb: 'show',
      words: ['abc:1'],
      unknownOptions: [],
    });
  });

  it('reads --long=VALUE as the option and its value; a short option never takes =', () => {
    expect(splitArgv(['--budget=5', '--root=a=b', 'search', 'x']).options).toEqual(['--budget', '5', '--root', 'a=b']);
    expect(splitArgv(['--budget=', 'search']).options).toEqual(['--budget', '']);
    expect(splitArgv(['-b=5', 'search']).words).toEqual(['search']);
    expect(splitArgv(['-b=5', 'search']).verb).toBe('-b=5');
    expect(splitArgv(['-b5', 'search']).verb).toBe('-b5');
  });

  it('takes the next word as the value, whatever it is', () => {
    expect(splitArgv(['--root', '--json', 'search']).options).toEqual(['--root', '--json']);
    expect(splitArgv(['-b', '-3', 'search', 'x'])).toMatchObject({
      options: ['-b', '-3'],
      verb: 'search',
      words: ['x'],
    });
  });

  it('after -- every word is a word, options and -- included', () => {
    expect(splitArgv(['search', '--', '--limt', '-n', '--', '--json'])).toEqual({
      options: [],
      verb: 'search',
      words: ['--limt', '-n', '--', '--json'],
      unknownOptions: [],
    });
    expect(splitArgv(['--', 'search'])).toMatchObject({ verb: 'search', words: [] });
  });

  it('reports an unknown long option, but keeps it as a word; one dash is query syntax', () => {
    expect(splitArgv(['search', 'parse_config', '--limt', '5'])).toEqual({
      options: [],
      verb: 'search',
      words: ['parse_config', '--limt', '5'],
      unknownOptions: ['--limt'],
    });
    expect(splitArgv(['search', '-x', '---y', '--z=1'])).toEqual({
      options: [],
      verb: 'search',
      words: ['-x', '---y', '--z=1'],
      unknownOptions: ['--z=1'],
    });
    expect(splitArgv(['--json=true', 'search']).unknownOptions).toEqual(['--json=true']);
  });

  it('a value option given last has no value: missingValue', () => {
    expect(splitArgv(['search', 'parse_config', '-n'])).toEqual({
      options: ['-n'],
      verb: 'search',
      words: ['parse_config'],
      unknownOptions: [],
      missingValue: '-n',
    });
    expect(missingValueMessage('-n')).toBe('-n needs a value, e.g. -n 5');
    expect(missingValueMessage('--budget')).toBe('--budget needs a value, e.g. --budget 5');
    expect(missingValueMessage('-C')).toBe('-C needs a value, e.g. -C 2');
    expect(missingValueMessage('--root')).toBe('--root needs a value, e.g. --root VALUE');
    expect(missingValueMessage('--scopes')).toBe('--scopes needs a value, e.g. --scopes VALUE');
  });

  it("a verb's own flags stay its words after it, and are unknown options anywhere else", () => {
    expect(splitArgv(['agent-setup', '--claude', '--force', '--hook', '--block'])).toEqual({
      options: [],
      verb: 'agent-setup',
      words: ['--claude', '--force', '--hook', '--block'],
      unknownOptions: [],
    });
    expect(splitArgv(['hook', 'claude', '--block']).unknownOptions).toEqual([]);
    expect(splitArgv(['show', 'ab:1', '--side', 'before']).words).toEqual(['ab:1', '--side', 'before']);
    expect(splitArgv(['show', 'ab:1', '--side=after']).words).toEqual(['ab:1', '--side=after']);
    expect(splitArgv(['since', '--uncommitted']).words).toEqual(['--uncommitted']);
    expect(splitArgv(['diff', 'HEAD', '--target', 'path:a.ts']).words).toEqual(['HEAD', '--target', 'path:a.ts']);
    expect(splitArgv(['search', 'x', '--force']).unknownOptions).toEqual(['--force']);
    expect(splitArgv(['--claude', 'agent-setup']).unknownOptions).toEqual(['--claude']);
    expect(splitArgv(['hist', 'x', '--uncommitted']).unknownOptions).toEqual(['--uncommitted']);
    // The tool's own options stay options after any verb.
    expect(splitArgv(['agent-setup', '--claude', '--json'])).toMatchObject({
      options: ['--json'],
      words: ['--claude'],
    });
    expect([...VERB_FLAGS.keys()].sort()).toEqual(['agent-setup', 'diff', 'hook', 'show', 'since']);
  });

  it('no verb: undefined, and an empty argv splits to nothing', () => {
    expect(splitArgv([])).toEqual({ options: [], verb: undefined, words: [], unknownOptions: [] });
    expect(splitArgv(['--json'])).toEqual({ options: ['--json'], verb: undefined, words: [], unknownOptions: [] });
  });
});

describe('readCommandLine', () => {
  it('parses every option with its defaults', () => {
    expect(run(['search', 'x']).options).toEqual({
      format: 'lines',
      noDaemon: false,
      noWorkspace: false,
      help: false,
      version: false,
    });
    expect(
      run([
        '--root',
        'r',
        '--cache',
        'c',
        '-b',
        '10',
        '-n',
        '3',
        '-C',
        '2',
        '--format',
        'json',
        '--no-daemon',
        '--workspace',
        'w.toml',
        '--member',
        'm',
        '--scopes',
        'per_source',
        'search',
        'x',
      ]).options,
    ).toEqual({
      root: 'r',
      cache: 'c',
      budget: 10,
      limit: 3,
      context: 2,
      format: 'json',
      noDaemon: true,
      workspace: 'w.toml',
      noWorkspace: false,
      member: 'm',
      scopes: 'per_source',
      help: false,
      version: false,
    });
    expect(run(['--no-workspace', 'status']).options.noWorkspace).toBe(true);
  });

  it('--json wins over --format; of --daemon and --no-daemon the last wins', () => {
    expect(run(['--json', '--format', 'lines', 's']).options.format).toBe('json');
    expect(run(['--format', 'lines', '--json', 's']).options.format).toBe('json');
    expect(run(['--json', '--json', 's']).options.format).toBe('json');
    expect(run(['--no-daemon', '--daemon', 's']).options.noDaemon).toBe(false);
    expect(run(['--daemon', '--no-daemon', 's']).options.noDaemon).toBe(true);
  });

  it('reads numbers as Number() does; -C is left to the verb', () => {
    expect(run(['-b', '', 's']).options.budget).toBe(0);
    expect(run(['-b', '1e3', 's']).options.budget).toBe(1000);
    expect(run(['-n', '5.0', 's']).options.limit).toBe(5);
    expect(run(['-C', '-1', 's']).options.context).toBe(-1);
    expect(run(['-C', '1.5', 's']).options.context).toBe(1.5);
    expect(run(['-C', 'x', 's']).options.context).toBeNaN();
    expect(run(['--root', '5', '--member', '007', 's']).options).toMatchObject({ root: '5', member: '007' });
  });

  it('usage errors, each with its message', () => {
    expect(usage(['search', 'parse_config', '-n'])).toBe('-n needs a value, e.g. -n 5');
    expect(usage(['search', 'parse_config', '--limt', '5'])).toBe(
      'unknown option --limt; to search for it as text, put it after -- (trufflepig search -- --limt) or quote it',
    );
    expect(usage(['--format', 'xml', 'search', 'x'])).toBe(
      'Invalid values: Argument: format, Given: "xml", Choices: "json", "lines"',
    );
    expect(usage(['--scopes', 'x', 's'])).toBe(
      'Invalid values: Argument: scopes, Given: "x", Choices: "shared", "per_source"',
    );
    expect(usage(['--format', 'xml', '--scopes', 'y', '--format', 'z', 's'])).toBe(
      'Invalid values: Argument: format, Given: "xml", "z", Choices: "json", "lines" Argument: scopes, Given: "y", Choices: "shared", "per_source"',
    );
    expect(usage(['-b', '-3', 'search', 'x'])).toBe('-b/--budget takes a whole number of tokens ≥ 0');
    for (const b of ['1.5', 'abc', 'Infinity', 'true'])
      expect(usage(['--budget', b, 's'])).toBe('-b/--budget takes a whole number of tokens ≥ 0');
    expect(usage(['-n', '0', 'search', 'x'])).toBe('-n/--limit takes a whole number ≥ 1');
    expect(usage(['--workspace', 'w', '--no-workspace', 's'])).toBe(
      '--no-workspace conflicts with --workspace; pass only one of them',
    );
    expect(usage(['--no-workspace', '--workspace', '', 's'])).toBe(
      '--no-workspace conflicts with --workspace; pass only one of them',
    );
    expect(usage(['--workspace', 'a', '--workspace', 'b', 's'])).toBe(
      '--workspace was given more than once; pass one FILE',
    );
    expect(usage(['--workspace', '', 's'])).toBe(
      '--workspace takes a FILE (or a directory holding trufflepig.workspace.toml)',
    );
    expect(usage(['-b', '5', '--budget', '6', 's'])).toBe('-b/--budget was given more than once; pass one N');
    expect(usage(['--root', 'a', '--root', 'b', 's'])).toBe('--root was given more than once; pass one DIR');
  });

  it('an option the verb does not take is a usage error naming the verbs that do; help and unknown verbs are left alone', () => {
    expect(usage(['map', 'src/a.c', '-C', '3'])).toBe(
      '-C/--context does not apply to map; it applies to search, more, show (trufflepig help map lists what map takes)',
    );
    expect(usage(['status', '--scopes', 'per_source'])).toMatch(
      /^--scopes does not apply to status; it applies to search /,
    );
    expect(usage(['serve', '-n', '5'])).toMatch(/^-n\/--limit does not apply to serve;/);
    expect(run(['show', 'k3x9q2:1', '-C', '3']).options.context).toBe(3);
    expect(run(['search', 'x', '-n', '5', '-C', '2']).options).toMatchObject({ limit: 5, context: 2 });
    expect(run(['--root', 'r', '--json', 'status']).options).toMatchObject({ root: 'r', format: 'json' });
    expect(readCommandLine(['help', 'map', '-C', '3']).kind).toBe('run');
    expect(readCommandLine(['frobnicate', '-C', '3']).kind).toBe('run');
  });

  it('the first trouble wins, in the documented order', () => {
    // missing value before an unknown option, unknown option before choices, choices before numbers
    expect(usage(['--limt', '--format', 'xml', '-n'])).toBe('-n needs a value, e.g. -n 5');
    expect(usage(['--limt', '--format', 'xml'])).toMatch(/^unknown option --limt;/);
    expect(usage(['-b', 'x', '--format', 'xml', 's'])).toMatch(/^Invalid values:/);
    expect(usage(['-n', '0', '-b', '-1', 's'])).toBe('-b/--budget takes a whole number of tokens ≥ 0');
    expect(usage(['-b', '1', '-b', '2', '--workspace', 'w', '--no-workspace', 's'])).toMatch(
      /^--no-workspace conflicts/,
    );
  });

  it('help and version answer before any check but a missing value', () => {
    expect(readCommandLine(['--help', '--limt']).kind).toBe('help');
    expect(readCommandLine(['-h']).kind).toBe('help');
    expect(readCommandLine(['--format', 'xml', '--help']).kind).toBe('help');
    expect(readCommandLine(['--help', '-b', 'x']).kind).toBe('help');
    expect(readCommandLine(['--version', '--help']).kind).toBe('help');
    expect(readCommandLine(['--version', '--format', 'xml']).kind).toBe('version');
    expect(readCommandLine(['-b', '5', '--version']).kind).toBe('version');
    expect(readCommandLine(['--help', '-n']).kind).toBe('usage');
    // After -- they are words.
    expect(run(['search', '--', '--help']).words).toEqual(['--help']);
  });

  it('quotes the unknown option with the function given', () => {
    const line = readCommandLine(['search', `--${'x'.repeat(10)}`], (s) => `${s.slice(0, 4)}…`);
    expect(line.kind === 'usage' && line.message).toBe(
      'unknown option --xx…; to search for it as text, put it after -- (trufflepig search -- --xx…) or quote it',
    );
  });
});

describe('budgetOption', () => {
  it('is the last valid -b/--budget of split options', () => {
    expect(budgetOption(['-b', '5', '--budget', '7'])).toBe(7);
    expect(budgetOption(['-b', '5', '--budget', 'x'])).toBe(5);
    expect(budgetOption(['-n', '5'])).toBeUndefined();
    expect(budgetOption(['-b'])).toBeUndefined();
  });
});

describe('fastOptions', () => {
  const fast = (argv: string[]) => fastOptions(readCommandLine(argv));

  it('serves plain calls, with the same values the full path forwards', () => {
    expect(fast(['search', 'x'])).toEqual({ format: 'lines' });
    expect(
      fast([
        '--json',
        '-b',
        '50',
        '-n',
        '3',
        '-C',
        '0',
        '--root',
        'r',
        '--cache',
        'c',
        '--member',
        'm',
        '--scopes',
        'shared',
        '--daemon',
        'search',
        'x',
      ]),
    ).toEqual({
      format: 'json',
      budget: 50,
      limit: 3,
      context: 0,
      root: 'r',
      cache: 'c',
      member: 'm',
      scopes: 'shared',
    });
    expect(fast(['--workspace', 'w', 'search', 'x'])).toEqual({ workspace: 'w', format: 'lines' });
    expect(fast(['--no-workspace', 'search', 'x'])).toEqual({ noWorkspace: true, format: 'lines' });
    expect(fast(['--format', 'json', 'more', 'ab@20'])).toEqual({ format: 'json' });
  });

  it('leaves to the full path what it must report or cannot serve', () => {
    const full: string[][] = [
      ['search', 'x', '-n'],
      ['search', 'x', '--limt'],
      ['--help'],
      ['--version', 's'],
      ['--no-daemon', 'search', 'x'],
      ['-b', '1.5', 's'],
      ['-n', '0', 's'],
      ['-C', '-1', 's'],
      ['-C', 'x', 's'],
      ['--format', 'xml', 's'],
      ['--root', '', 's'],
      ['--root', '-x', 's'],
      ['--member', '--json', 's'],
      ['--no-workspace', '--member', 'm', 's'],
      ['--workspace', 'w', '--no-workspace', 's'],
      ['-b', '5', '-b', '6', 's'],
      ['--workspace', '', 's'],
    ];
    for (const argv of full) expect({ argv, fast: fast(argv) }).toEqual({ argv, fast: undefined });
  });

  it('is undefined for every line that is not a run', () => {
    const lines: CommandLine[] = [readCommandLine(['--help']), readCommandLine(['--version']), readCommandLine(['-n'])];
    for (const line of lines) expect(fastOptions(line)).toBeUndefined();
  });
});
