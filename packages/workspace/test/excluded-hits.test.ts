// A file the index holds no content of (a committed binary) stays findable by its path, but a
// search for code puts it after every file whose content holds the evidence, marks it
// `[excluded: binary]` and prints no line of it (an agent trial on jinja2: `search
// Environment` printed `9: _env_bound\xDA\x0BEnvironment)` from a committed `.pyc`, while
// the coverage line counted the file as an excluded binary).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { indexCommand, searchCommand } from '../src';
import { git, indexedRepo, json, type IndexedRepo } from './ws-helpers';

describe('hits of files excluded from content indexing', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-ws-excluded-', {
      'environment.py': 'class Environment:\n    """The template environment."""\n',
      'sandbox.py': 'from .environment import Environment\n\n\nclass Sandboxed(Environment):\n    pass\n',
    });
    // Bytes with NULs: a binary, named like the class.
    const pyc = Buffer.concat([
      Buffer.from([0x6f, 0x0d, 0x0d, 0x0a, 0, 0, 0, 0]),
      Buffer.from('\u00da\u000bEnvironment)'),
    ]);
    fs.mkdirSync(path.join(repo.root, '__pycache__'));
    fs.writeFileSync(path.join(repo.root, '__pycache__', 'environment.cpython-311.pyc'), pyc);
    git(repo.root, 'add', '-A');
    git(repo.root, 'commit', '-q', '-m', 'bytecode');
    expect((await indexCommand(repo.at())).exitCode).toBe(0);
  });

  it('ranks the binary after the code, marked, with no evidence line', async () => {
    const out = await searchCommand(['Environment'], repo.at({ budget: 5000 }));
    expect(out.exitCode).toBe(0);
    const lines = out.stdout.split('\n');
    const at = lines.findIndex((l) => l.includes('environment.cpython-311.pyc'));
    expect(at).toBeGreaterThan(0);
    expect(lines[at]).toContain('[excluded: binary]');
    // No evidence line under it, and no hit after it.
    expect(lines[at + 1]).toMatch(/^coverage:/);
    expect(out.stdout).not.toContain('\\xDA');
    const hits = json(await searchCommand(['Environment'], repo.at({ format: 'json', budget: 5000 }))).hits as {
      path: string;
      excluded?: string;
      evidence?: unknown;
      snippet?: unknown;
    }[];
    const last = hits[hits.length - 1];
    expect(last).toMatchObject({ path: '__pycache__/environment.cpython-311.pyc', excluded: 'binary' });
    expect(last.snippet).toBeUndefined();
    expect(hits.slice(0, -1).every((h) => h.excluded === undefined)).toBe(true);
  });
});
