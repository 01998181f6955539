// A member named __proto__ is refused where the file says so, never accepted and then
// lost from a `members` map; ws discover never proposes such a name (issue 10, finding 10).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseWorkspaceConfig } from '@trufflepig/config';
import { searchCommand, wsCommand } from '../src';
import { json, makeRepo, makeSpace, opts } from './ws-helpers';

describe('reserved member names', () => {
  it('a workspace file with [members.__proto__] answers config_invalid_name at FILE:LINE', async () => {
    const space = makeSpace('proto');
    fs.writeFileSync(
      space.config,
      '[workspace]\nname = "space"\n\n[members.app]\npath = "app"\n\n[members.__proto__]\npath = "lib"\n',
    );
    for (const out of [
      await wsCommand('show', [], opts(space, space.app)),
      await searchCommand(['TokenBucket'], opts(space, space.app)),
    ]) {
      expect(out.exitCode).toBe(2);
      const err = json(out).error;
      expect(err.code).toBe('config_invalid_name');
      expect(err.message).toContain(`${space.config}:7: member name "__proto__" is reserved`);
    }
  });

  it('ws discover proposes an accepted name for a directory called __proto__ or constructor', async () => {
    const space = makeSpace('discover-proto');
    const proto = makeRepo(path.join(space.base, '__proto__'), { 'a.rs': 'fn a() {}\n' });
    const ctor = makeRepo(path.join(space.base, 'constructor'), { 'b.rs': 'fn b() {}\n' });
    const out = json(await wsCommand('discover', [proto, ctor], opts(space, space.base)));
    expect(out.proposal.workspace.members).toEqual(['__proto__-member', 'constructor-member']);
    expect(Object.keys(out.proposal.members)).toEqual(['__proto__-member', 'constructor-member']);
    const parsed = parseWorkspaceConfig(out.toml, path.join(space.base, 'proposal.toml'));
    expect(parsed.ok && parsed.value.members.map((m) => m.name)).toEqual(['__proto__-member', 'constructor-member']);
  });
});
