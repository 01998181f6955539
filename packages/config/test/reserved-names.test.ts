// Names a JavaScript object cannot hold as plain keys (`__proto__` vanishes from every
// `members` map) are refused at FILE:LINE with config_invalid_name (issue 10, finding 10).
import * as path from 'node:path';
import { parseWorkspaceConfig, RESERVED_NAMES, type ConfigOutcome, type WorkspaceConfig } from '../src/index';
import { tempDir } from './fixtures';

function errorsOf(result: ConfigOutcome<WorkspaceConfig>) {
  if (result.ok) throw new Error('expected an error, got a valid configuration');
  return result.errors;
}

describe('reserved names', () => {
  const file = path.join(tempDir(), 'trufflepig.workspace.toml');

  it('a member named __proto__ (bare or quoted) is config_invalid_name naming FILE:LINE', () => {
    for (const key of ['__proto__', '"__proto__"']) {
      const text = `[workspace]\nname = "space"\n\n[members.ok]\npath = "/x/a"\n\n[members.${key}]\npath = "/x/b"\n`;
      const errors = errorsOf(parseWorkspaceConfig(text, file));
      expect(errors.map((e) => [e.code, e.line, e.field])).toEqual([['config_invalid_name', 7, 'members.__proto__']]);
      expect(errors[0].message).toMatch(
        new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:7: member name "__proto__" is reserved`),
      );
    }
  });

  it('every Object.prototype property name is refused, for members and the workspace name', () => {
    expect([...RESERVED_NAMES].sort()).toEqual(
      Object.getOwnPropertyNames(Object.prototype)
        .filter((n) => /^[A-Za-z0-9_-]+$/.test(n))
        .sort(),
    );
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const member = errorsOf(
        parseWorkspaceConfig(`[workspace]\nname = "space"\n[members.${name}]\npath = "/x/a"\n`, file),
      );
      expect(member.map((e) => [e.code, e.line])).toEqual([['config_invalid_name', 3]]);
      const workspace = errorsOf(
        parseWorkspaceConfig(`[workspace]\nname = "${name}"\n[members.a]\npath = "/x/a"\n`, file),
      );
      expect(workspace.map((e) => [e.code, e.line, e.field])).toEqual([['config_invalid_name', 2, 'workspace.name']]);
    }
  });

  it('names merely containing them stay valid', () => {
    const ok = parseWorkspaceConfig(
      `[workspace]\nname = "proto"\n[members.__proto]\npath = "/x/a"\n[members.my-constructor]\npath = "/x/b"\n`,
      file,
    );
    expect(ok.ok && ok.value.members.map((m) => m.name)).toEqual(['__proto', 'my-constructor']);
  });
});
