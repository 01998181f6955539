// Issue 15's bad input "a 200-level directory tree": a file 200 directories down is walked,
// indexed, searched, read back inside the root and kept through an edit, from a Git
// checkout and from a plain directory alike; nothing recurses once per level into a stack
// limit, and a path of ~1,000 bytes fits every column and key it is stored in.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FILE_MAX_BYTES, readInsideRoot, walkRoot } from '../src';
import { Fixture, gitInit } from './helpers';

const LEVELS = 200;
/** `d000/d001/…/d199`: 1,000 bytes of directories. */
const DEEP_DIR = Array.from({ length: LEVELS }, (_, i) => `d${String(i).padStart(3, '0')}`).join('/');
const DEEP_FILE = `${DEEP_DIR}/bottom.ts`;
const DEEP_SOURCE = 'export function reachedTheBottom(depth: number): number {\n  return depth * 2;\n}\n';

function deepFixture(label: string, git: boolean): Fixture {
  const fx = new Fixture(label, {
    [DEEP_FILE]: DEEP_SOURCE,
    // A sibling at every 50th level: the walk must come back up and go on.
    ...Object.fromEntries(
      [50, 100, 150].map((n) => [
        `${DEEP_DIR.split('/').slice(0, n).join('/')}/level${n}.ts`,
        `export const level${n} = ${n};\n`,
      ]),
    ),
    'top.ts': 'export const top = 0;\n',
  });
  if (git) {
    gitInit(fx.root);
    execFileSync('git', ['-C', fx.root, 'add', '-A']);
  }
  return fx;
}

describe.each([
  ['a Git checkout', true],
  ['a plain directory', false],
])('a 200-level directory tree in %s', (_label, git) => {
  it('walks, indexes, searches and reads the file at the bottom, and follows an edit there', async () => {
    const fx = deepFixture(`deep-${git ? 'git' : 'plain'}`, git);
    const walked = walkRoot(fx.root);
    expect(walked.issues).toEqual([]);
    expect(walked.files.map((f) => f.path).sort()).toEqual(
      [
        DEEP_FILE,
        'top.ts',
        ...[50, 100, 150].map((n) => `${DEEP_DIR.split('/').slice(0, n).join('/')}/level${n}.ts`),
      ].sort(),
    );
    const report = await fx.index();
    expect(report).toMatchObject({ generation: 1, files: 5 });
    expect(await fx.paths('sym:reachedTheBottom')).toEqual([DEEP_FILE]);
    expect(await fx.paths('reached the bottom')).toContain(DEEP_FILE);
    expect(await fx.paths('re:return depth \\* 2')).toEqual([DEEP_FILE]);
    expect(await fx.paths('sym:level150')).toHaveLength(1);
    const read = readInsideRoot(fx.root, Buffer.from(DEEP_FILE), FILE_MAX_BYTES);
    expect(read.ok && read.bytes.toString('utf8')).toBe(DEEP_SOURCE);

    fs.writeFileSync(path.join(fx.root, DEEP_FILE), DEEP_SOURCE.replace('reachedTheBottom', 'stillAtTheBottom'));
    if (git) execFileSync('git', ['-C', fx.root, 'add', '-A']);
    expect(await fx.index()).toMatchObject({ generation: 2, parsed: 1 });
    expect(await fx.paths('sym:stillAtTheBottom')).toEqual([DEEP_FILE]);
    expect(await fx.paths('sym:reachedTheBottom')).toEqual([]);
  });
});
