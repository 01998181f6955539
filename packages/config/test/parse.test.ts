import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  loadWorkspaceConfig,
  MAX_BUDGET,
  MAX_CONFIG_BYTES,
  MAX_MEMBERS,
  parseWorkspaceConfig,
  type ConfigOutcome,
  type WorkspaceConfig,
} from '../src/index';
import { configText, mkdir, tempDir, write } from './fixtures';

function errorOf(result: ConfigOutcome<WorkspaceConfig>) {
  if (result.ok) throw new Error('expected an error, got a valid configuration');
  return result.error;
}

describe('parseWorkspaceConfig: valid files', () => {
  it('parses the contract example with ~ expansion, relative paths and a missing member', () => {
    const home = tempDir();
    const lunatic = mkdir(path.join(home, 'Source', 'lunatic'));
    const space = mkdir(path.join(home, 'Source', 'space'));
    const tales = mkdir(path.join(space, '..', 'tales-from-space'));
    const text = `[workspace]
name = "space"

[semantic]
enabled = true
rerank = false

[output]
budget = 1200

[retrieval]
scopes = "per_source"

[members.lunatic]
path = "~/Source/lunatic"

[members.tales-from-space]
path = "../tales-from-space"

[members.tgstation]
path = "~/Source/tgstation/./"
`;
    const file = write(path.join(space, 'trufflepig.workspace.toml'), text);
    const result = parseWorkspaceConfig(text, file, { env: { HOME: home } });
    expect(result).toEqual({
      ok: true,
      value: {
        file,
        name: 'space',
        semantic: { enabled: true, rerank: false },
        budget: 1200,
        scopes: 'per_source',
        members: [
          { name: 'lunatic', path: '~/Source/lunatic', root: lunatic, available: true, line: 15 },
          { name: 'tales-from-space', path: '../tales-from-space', root: tales, available: true, line: 18 },
          {
            name: 'tgstation',
            path: '~/Source/tgstation/./',
            root: path.join(home, 'Source', 'tgstation'),
            available: false,
            unavailableReason: 'directory does not exist',
            line: 21,
          },
        ],
      },
    });
  });

  it('defaults: no semantic settings, no budget, shared scopes', () => {
    const dir = tempDir();
    mkdir(path.join(dir, 'a'));
    const result = parseWorkspaceConfig(configText({ a: 'a' }), path.join(dir, 'ws.toml'));
    expect(result.ok && result.value).toMatchObject({ semantic: {}, budget: undefined, scopes: 'shared' });
  });

  it('resolves relative paths against the configuration file, not the process cwd', () => {
    const dir = tempDir();
    const a = mkdir(path.join(dir, 'nested', 'a'));
    const result = parseWorkspaceConfig(configText({ a: 'a' }), path.join(dir, 'nested', 'ws.toml'));
    expect(result.ok && result.value.members[0]!.root).toBe(a);
  });

  it('canonicalizes a member reached through a symlink', () => {
    const dir = tempDir();
    const real = mkdir(path.join(dir, 'real'));
    fs.symlinkSync(real, path.join(dir, 'link'));
    const result = parseWorkspaceConfig(configText({ a: 'link' }), path.join(dir, 'ws.toml'));
    expect(result.ok && result.value.members[0]).toMatchObject({ path: 'link', root: real, available: true });
  });

  it('reports a file given as a member root as unavailable', () => {
    const dir = tempDir();
    write(path.join(dir, 'file'), 'x');
    const result = parseWorkspaceConfig(configText({ a: 'file' }), path.join(dir, 'ws.toml'));
    expect(result.ok && result.value.members[0]).toMatchObject({
      available: false,
      unavailableReason: 'not a directory',
    });
  });

  it('orders members by [workspace].members when given, else by document order (numeric names too)', () => {
    const dir = tempDir();
    for (const n of ['x', '2', '1']) mkdir(path.join(dir, `m${n}`));
    // Written by hand: an object literal would put "1" and "2" first.
    const tables = '[members.x]\npath = "mx"\n[members.2]\npath = "m2"\n[members.1]\npath = "m1"\n';
    const plain = parseWorkspaceConfig(`[workspace]\nname = "s"\n${tables}`, path.join(dir, 'ws.toml'));
    expect(plain.ok && plain.value.members.map((m) => m.name)).toEqual(['x', '2', '1']);
    const ordered = parseWorkspaceConfig(
      `[workspace]\nname = "s"\nmembers = ["1", "x", "2"]\n${tables}`,
      path.join(dir, 'ws.toml'),
    );
    expect(ordered.ok && ordered.value.members.map((m) => m.name)).toEqual(['1', 'x', '2']);
  });

  it('accepts explicit scope lists of source tags', () => {
    const dir = tempDir();
    mkdir(path.join(dir, 'a'));
    const text = `${configText({ a: 'a' })}\n[retrieval]\nscopes = [[], ["source:code"], ["source:docs", "source:test"]]\n`;
    const result = parseWorkspaceConfig(text, path.join(dir, 'ws.toml'));
    expect(result.ok && result.value.scopes).toEqual([[], ['source:code'], ['source:docs', 'source:test']]);
  });
});

describe('parseWorkspaceConfig: errors name file, line and field', () => {
  const file = '/nonexistent/ws/trufflepig.workspace.toml';

  it('unknown top-level field', () => {
    const text = configText({ a: '/x/a' }) + '\n[outptu]\nbudget = 3\n';
    const err = errorOf(parseWorkspaceConfig(text, file));
    expect(err).toMatchObject({
      code: 'config_unknown_field',
      file,
      field: 'outptu',
      line: text.split('\n').indexOf('[outptu]') + 1,
    });
    expect(err.message).toContain(`${file}:`);
  });

  it('unknown field inside a member, and inside [semantic]', () => {
    const text =
      '[workspace]\nname = "s"\n[semantic]\nenabled = true\nrerankk = true\n[members.a]\npath = "/x/a"\nbranch = "main"\n';
    const result = parseWorkspaceConfig(text, file);
    expect(!result.ok && result.errors.map((e) => [e.code, e.field, e.line])).toEqual([
      ['config_unknown_field', 'semantic.rerankk', 5],
      ['config_unknown_field', 'members.a.branch', 8],
    ]);
  });

  it('invalid workspace and member names', () => {
    const long = 'n'.repeat(65);
    const text = `[workspace]\nname = "${long}"\n\n[members."bad name"]\npath = "/x/a"\n`;
    const result = parseWorkspaceConfig(text, file);
    expect(!result.ok && result.errors.map((e) => [e.code, e.field, e.line])).toEqual([
      ['config_invalid_name', 'workspace.name', 2],
      ['config_invalid_name', 'members."bad name"', 4],
    ]);
    const ok64 = parseWorkspaceConfig(`[workspace]\nname = "${'n'.repeat(64)}"\n[members.a]\npath = "/x/a"\n`, file);
    expect(ok64.ok).toBe(true);
  });

  it('a members list that does not name every member exactly once', () => {
    const text = configText({ a: '/x/a', b: '/x/b' }, 'members = ["a", "a", "c"]');
    const err = errorOf(parseWorkspaceConfig(text, file));
    expect(err).toMatchObject({ code: 'config_members_mismatch', field: 'workspace.members', line: 3 });
    expect(err.message).toContain('"a" is listed twice');
    expect(err.message).toContain('"c" is not a declared');
    expect(err.message).toContain('missing "b"');
  });

  it('budget limits: 1 and 1,000,000 are accepted, 0 and 1,000,001 are not', () => {
    const at = (budget: number) =>
      parseWorkspaceConfig(configText({ a: '/x/a' }, `[output]\nbudget = ${budget}`), file);
    expect(at(1).ok).toBe(true);
    expect(at(MAX_BUDGET).ok).toBe(true);
    expect(errorOf(at(0))).toMatchObject({ code: 'config_budget_range', field: 'output.budget', line: 4 });
    expect(errorOf(at(MAX_BUDGET + 1)).code).toBe('config_budget_range');
    const float = parseWorkspaceConfig(configText({ a: '/x/a' }, '[output]\nbudget = 12.5'), file);
    expect(errorOf(float).code).toBe('config_invalid_type');
  });

  it('member count: 32 accepted, 33 and 0 rejected', () => {
    const members = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`m${i}`, `/x/m${i}`]));
    expect(parseWorkspaceConfig(configText(members(MAX_MEMBERS)), file).ok).toBe(true);
    expect(errorOf(parseWorkspaceConfig(configText(members(MAX_MEMBERS + 1)), file))).toMatchObject({
      code: 'config_member_count',
      field: 'members',
    });
    expect(errorOf(parseWorkspaceConfig('[workspace]\nname = "s"\n', file))).toMatchObject({
      code: 'config_member_count',
      file,
    });
  });

  it('size limit: exactly 256 KiB is accepted, one byte more is rejected', () => {
    const base = configText({ a: '/x/a' });
    const pad = (n: number) => base + '#' + 'x'.repeat(n - Buffer.byteLength(base) - 2) + '\n';
    expect(Buffer.byteLength(pad(MAX_CONFIG_BYTES))).toBe(MAX_CONFIG_BYTES);
    expect(parseWorkspaceConfig(pad(MAX_CONFIG_BYTES), file).ok).toBe(true);
    expect(errorOf(parseWorkspaceConfig(pad(MAX_CONFIG_BYTES + 1), file))).toMatchObject({
      code: 'config_too_large',
      file,
    });
  });

  it('TOML syntax errors carry the parser line', () => {
    const err = errorOf(parseWorkspaceConfig('[workspace]\nname = "s"\n\n[members.a]\npath = \n', file));
    expect(err).toMatchObject({ code: 'config_parse_error', file, line: 5 });
  });

  it('missing workspace name, missing member path, wrong types', () => {
    const text = '[workspace]\n\n[semantic]\nenabled = "yes"\n[members.a]\n\n[retrieval]\nscopes = "everything"\n';
    const result = parseWorkspaceConfig(text, file);
    expect(!result.ok && result.errors.map((e) => [e.code, e.field, e.line])).toEqual([
      ['config_missing_field', 'workspace.name', 1],
      ['config_invalid_type', 'semantic.enabled', 4],
      ['config_missing_field', 'members.a.path', 5],
      ['config_invalid_scopes', 'retrieval.scopes', 8],
    ]);
  });

  it('scope lists may only name source: tags and may not be empty', () => {
    const at = (scopes: string) =>
      parseWorkspaceConfig(configText({ a: '/x/a' }, `[retrieval]\nscopes = ${scopes}`), file);
    expect(errorOf(at('[["lang:rust"]]')).code).toBe('config_invalid_scopes');
    expect(errorOf(at('[]')).code).toBe('config_invalid_scopes');
    expect(errorOf(at('["source:code"]')).code).toBe('config_invalid_scopes');
  });

  it('finds lines of dotted keys and ignores look-alikes inside multi-line strings', () => {
    // If the scanner read the string's "[members.fake]" as a header, `extra` on line 9
    // would be filed under members.fake and its error would fall back to line 3.
    const text =
      'members.a.path = "/x/a"\nmembers.a.colour = "red"\n[workspace]\nname = "s"\ndescription = """\n[members.fake]\nextra = 1\n"""\nextra = 2\n';
    const result = parseWorkspaceConfig(text, file);
    expect(!result.ok && result.errors.map((e) => [e.code, e.field, e.line])).toEqual([
      ['config_unknown_field', 'members.a.colour', 2],
      ['config_unknown_field', 'workspace.description', 5],
      ['config_unknown_field', 'workspace.extra', 9],
    ]);
    const top = '[workspace]\nname = "s"\n\n[members.a]\npath = "/x/a"\ncolour = "red"\n';
    expect(errorOf(parseWorkspaceConfig(top, file))).toMatchObject({ field: 'members.a.colour', line: 6 });
  });
});

describe('parseWorkspaceConfig: roots', () => {
  it('rejects duplicate roots, including a symlink alias, at the later declaration', () => {
    const dir = tempDir();
    const real = mkdir(path.join(dir, 'real'));
    fs.symlinkSync(real, path.join(dir, 'alias'));
    const text = configText({ a: 'real', b: 'alias' });
    const err = errorOf(parseWorkspaceConfig(text, path.join(dir, 'ws.toml')));
    expect(err).toMatchObject({
      code: 'config_duplicate_root',
      field: 'members.b.path',
      line: text.split('\n').indexOf('path = "alias"') + 1,
    });
    expect(errorOf(parseWorkspaceConfig(configText({ a: 'real', b: './real/' }), path.join(dir, 'ws.toml'))).code).toBe(
      'config_duplicate_root',
    );
  });

  it('rejects overlapping roots, through symlinks and for missing roots too', () => {
    const dir = tempDir();
    const outer = mkdir(path.join(dir, 'outer'));
    mkdir(path.join(outer, 'inner'));
    fs.symlinkSync(path.join(outer, 'inner'), path.join(dir, 'inner-link'));
    const cfg = path.join(dir, 'ws.toml');
    expect(errorOf(parseWorkspaceConfig(configText({ a: 'outer', b: 'outer/inner' }), cfg)).code).toBe(
      'config_overlapping_root',
    );
    expect(errorOf(parseWorkspaceConfig(configText({ b: 'inner-link', a: 'outer' }), cfg)).code).toBe(
      'config_overlapping_root',
    );
    expect(errorOf(parseWorkspaceConfig(configText({ a: 'gone', b: 'gone/deeper' }), cfg)).code).toBe(
      'config_overlapping_root',
    );
    expect(parseWorkspaceConfig(configText({ a: 'outer', b: 'outer2' }), cfg).ok).toBe(true);
  });

  it('names the nested member and the enclosing one whichever is declared first, at the later line', () => {
    const dir = tempDir();
    const outer = mkdir(path.join(dir, 'outer'));
    const inner = mkdir(path.join(outer, 'inner'));
    const cfg = path.join(dir, 'ws.toml');
    for (const members of [
      { b: 'outer/inner', a: 'outer' },
      { a: 'outer', b: 'outer/inner' },
    ]) {
      const text = configText(members);
      const err = errorOf(parseWorkspaceConfig(text, cfg));
      const laterName = Object.keys(members)[1]!;
      const line = text.split('\n').indexOf(`path = ${JSON.stringify(members[laterName as 'a' | 'b'])}`) + 1;
      expect(err).toMatchObject({
        code: 'config_overlapping_root',
        message: `${cfg}:${line}: member b (${inner}) lies inside member a (${outer}); members must not overlap, remove or move one`,
        field: `members.${laterName}.path`,
        line,
      });
    }
  });

  it('reports every conflicting pair, in declaration order', () => {
    const dir = tempDir();
    const real = mkdir(path.join(dir, 'real'));
    mkdir(path.join(real, 'sub'));
    fs.symlinkSync(real, path.join(dir, 'alias'));
    const result = parseWorkspaceConfig(
      configText({ a: 'real', b: 'real/sub', c: 'alias' }),
      path.join(dir, 'ws.toml'),
    );
    expect(!result.ok && result.errors.map((e) => [e.code, e.field])).toEqual([
      ['config_overlapping_root', 'members.b.path'],
      ['config_duplicate_root', 'members.c.path'],
      ['config_overlapping_root', 'members.c.path'],
    ]);
  });
});

describe('parseWorkspaceConfig: unavailable members', () => {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  (isRoot ? it.skip : it)('says why a member root cannot be used: unreadable, not searchable, missing', () => {
    const dir = tempDir();
    const locked = mkdir(path.join(dir, 'locked'));
    mkdir(path.join(dir, 'closed', 'inside'));
    fs.chmodSync(locked, 0o300);
    fs.chmodSync(path.join(dir, 'closed'), 0o600);
    try {
      const result = parseWorkspaceConfig(
        configText({ a: 'locked', b: 'closed/inside', c: 'gone' }),
        path.join(dir, 'ws.toml'),
      );
      expect(result.ok && result.value.members.map((m) => [m.root, m.available, m.unavailableReason])).toEqual([
        [locked, false, 'directory is not readable'],
        [path.join(dir, 'closed', 'inside'), false, 'permission denied'],
        [path.join(dir, 'gone'), false, 'directory does not exist'],
      ]);
    } finally {
      fs.chmodSync(locked, 0o755);
      fs.chmodSync(path.join(dir, 'closed'), 0o755);
    }
  });
});

describe('loadWorkspaceConfig', () => {
  it('reads the file and anchors paths at its canonical location', () => {
    const dir = tempDir();
    const a = mkdir(path.join(dir, 'a'));
    const file = write(path.join(dir, 'trufflepig.workspace.toml'), configText({ a: 'a' }));
    const result = loadWorkspaceConfig(file);
    expect(result.ok && result.value.file).toBe(file);
    expect(result.ok && result.value.members[0]!.root).toBe(a);
  });

  it('reports a missing file and an oversized file without parsing', () => {
    const dir = tempDir();
    expect(errorOf(loadWorkspaceConfig(path.join(dir, 'none.toml'))).code).toBe('config_not_found');
    const big = write(path.join(dir, 'big.toml'), '#'.repeat(MAX_CONFIG_BYTES + 1));
    expect(errorOf(loadWorkspaceConfig(big))).toMatchObject({ code: 'config_too_large', file: big });
  });
});
