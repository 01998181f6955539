// Install from packed tarballs (docs/install.md): tools/pack/pack.js packs the CLI and the
// @trufflepig/* packages it uses, one `npm install -g --prefix TMP` installs them, and the
// installed bin runs on a real, committed Git repository from another directory. Then a
// TypeScript consumer: @trufflepig/workspace and its dependencies, packed and installed
// into a temp project, compiled against with `strict` by the repository's tsc and run.
// Needs the built packages (the test target builds them) and an npm cache or registry for
// the third-party packages; @trufflepig/* is pointed at a dead registry, so the tarballs
// must resolve each other.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TEST_ENV, tempDir } from './cli';

const { packAll, withInstallScripts } = require('../../../tools/pack/pack.js') as {
  packAll(dir: string, names: string[]): string[];
  withInstallScripts(names: string[]): string[];
};

const CLI_VERSION = (require('../package.json') as { version: string }).version;
const WORKSPACE_PACKAGES = [
  'base',
  'cli-surface',
  'config',
  'history',
  'index',
  'mcp',
  'member-root',
  'navigation',
  'rank',
  'render',
  'result-cache',
  'runtime',
  'workspace',
];
/** Any fetch of a @trufflepig/* package from a registry fails at once. */
const DEAD_REGISTRY = 'http://127.0.0.1:9/';

const BUCKET_RS = `/// A token bucket that refills over time.
pub struct TokenBucket {
    tokens: u32,
}

impl TokenBucket {
    pub fn refill_tokens(&mut self, n: u32) {
        self.tokens += n;
    }
}
`;
const CLIENT_TS = 'export function scheduleRefill(every: number): void {\n  setInterval(() => every, every);\n}\n';

/**
 * The environment of a user's shell: without the npm_* variables of the npm/npx that started
 * jest, and without the FORCE_COLOR that nx sets (beside TEST_ENV's NO_COLOR it makes Node
 * warn on stderr at every start).
 */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(TEST_ENV).filter(([k]) => !k.toLowerCase().startsWith('npm_') && k !== 'FORCE_COLOR'),
  );
}

function git(root: string, ...args: string[]): void {
  const r = spawnSync('git', ['-C', root, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
}

describe('npm install -g of the packed tarballs', () => {
  let prefix: string;
  let tarballs: string[];
  let bin: string;
  let root: string;
  let cache: string;
  /** Runs the installed trufflepig from os.tmpdir(), outside the clone. */
  const installed = (...args: string[]) =>
    spawnSync(bin, args, { cwd: os.tmpdir(), encoding: 'utf8', env: cleanEnv(), timeout: 60_000 });

  beforeAll(() => {
    const started = Date.now();
    tarballs = packAll(tempDir('pack'), ['trufflepig']);
    prefix = tempDir('prefix');
    const npm = spawnSync(
      'npm',
      [
        'install',
        '--global',
        '--prefix',
        prefix,
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--fetch-retries=0',
        `--allow-scripts=${withInstallScripts(['trufflepig']).join(',')}`,
        `--@trufflepig:registry=${DEAD_REGISTRY}`,
        ...tarballs,
      ],
      { cwd: os.tmpdir(), encoding: 'utf8', env: cleanEnv(), timeout: 480_000 },
    );
    if (npm.status !== 0) throw new Error(`npm install -g failed (exit ${npm.status}):\n${npm.stderr.slice(-3000)}`);
    bin = path.join(prefix, 'bin', 'trufflepig');
    // pack + install take ~2 minutes here, most of it compiling SQLite (better-sqlite3) and
    // tree-sitter's core (docs/install.md)
    process.stderr.write(`install.test: packed and installed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

    const base = tempDir('installed-repo');
    root = path.join(base, 'root');
    cache = path.join(base, 'cache');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.mkdirSync(path.join(root, 'web'));
    fs.writeFileSync(path.join(root, 'src', 'bucket.rs'), BUCKET_RS);
    fs.writeFileSync(path.join(root, 'web', 'client.ts'), CLIENT_TS);
    git(root, 'init', '-q');
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'token bucket');
  }, 540_000);

  test('packs one tarball per package and installs copies, not links into the clone', () => {
    expect(tarballs.map((t) => path.basename(t)).sort()).toEqual(
      [`trufflepig-${CLI_VERSION}.tgz`, ...WORKSPACE_PACKAGES.map((p) => `trufflepig-${p}-${CLI_VERSION}.tgz`)].sort(),
    );
    const cli = fs.realpathSync(path.join(prefix, 'lib', 'node_modules', 'trufflepig'));
    expect(cli.startsWith(prefix + path.sep)).toBe(true);
    expect(fs.realpathSync(bin)).toBe(path.join(cli, 'bin', 'trufflepig.js'));
    // what the installed CLI loads: the facade, and the native parser and a grammar the index loads
    const facade = require.resolve('@trufflepig/workspace', { paths: [cli] });
    const index = path.dirname(require.resolve('@trufflepig/index/package.json', { paths: [path.dirname(facade)] }));
    for (const resolved of [
      facade,
      index,
      require.resolve('tree-sitter', { paths: [index] }),
      require.resolve('tree-sitter-rust', { paths: [index] }),
    ]) {
      expect(fs.realpathSync(resolved).startsWith(prefix + path.sep)).toBe(true);
    }
  });

  test('--version runs from another directory', () => {
    const r = installed('--version');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(CLI_VERSION);
  });

  test('search indexes and finds the file, and sym: finds the tree-sitter definition', () => {
    const words = installed('--no-daemon', '--root', root, '--cache', cache, '--json', 'search', 'refill', 'tokens');
    expect(words.status).toBe(0);
    const first = (JSON.parse(words.stdout) as { hits: { path: string }[] }).hits[0];
    expect(first.path).toBe('src/bucket.rs');

    const sym = installed('--no-daemon', '--root', root, '--cache', cache, '--json', 'search', 'sym:scheduleRefill');
    expect(sym.status).toBe(0);
    expect((JSON.parse(sym.stdout) as { hits: { path: string; name?: string }[] }).hits[0]).toMatchObject({
      path: 'web/client.ts',
      name: 'scheduleRefill',
    });

    const lines = installed('--no-daemon', '--root', root, '--cache', cache, 'show', 'sym:TokenBucket');
    expect(lines.status).toBe(0);
    expect(lines.stdout).toContain('src/bucket.rs');
    expect(lines.stdout).toContain('pub struct TokenBucket');
  });
});

/** A small program against the typed library API: every verb, a typed error code, the page kinds narrowed. */
const CONSUMER_TS = `import {
  ERROR_CODES, isTrufflepigError, openWorkspace, TrufflepigError, type ErrorCode, type Page, type SearchPage, type Workspace,
} from '@trufflepig/workspace';

function describePage(page: Page): string {
  switch (page.kind) {
    case 'search':
      return \`search \${page.hits.length}\`;
    case 'refs':
      return \`refs \${page.hits.map((h) => \`\${h.role}:\${h.resolution}\`).join(',')}\`;
    case 'map':
      return \`map \${page.of} \${page.hits.map((h) => h.path).join(',')}\`;
  }
}

async function main(root: string): Promise<void> {
  const ws: Workspace = await openWorkspace({ root, noWorkspace: true });
  try {
    const page: SearchPage = await ws.search('refill tokens', { limit: 10, budget: 600 });
    const hit = page.hits[0];
    if (hit === undefined) throw new Error('no hit');
    const read = await ws.show(hit.handle);
    const refs = await ws.refs('TokenBucket');
    const map = await ws.map('src/');
    const sym = (await ws.search('sym:TokenBucket::refill_tokens')).hits[0];
    const ctx = sym === undefined ? undefined : await ws.ctx(sym.handle);
    let code: ErrorCode | undefined;
    try {
      await ws.show('zzzzzz:1');
    } catch (err) {
      if (!(err instanceof TrufflepigError)) throw err;
      code = err.code;
    }
    console.log(JSON.stringify({
      kind: ws.kind, state: page.coverage.state, path: hit.path, startLine: hit.startLine, endLine: hit.endLine,
      verified: read.verified, text: read.text, refs: describePage(refs), map: describePage(map),
      container: ctx?.container?.name ?? null, code, codes: ERROR_CODES.length,
    }));
  } finally {
    await ws.close();
  }
}

main(process.argv[2] ?? '.').catch((err: unknown) => {
  console.error(isTrufflepigError(err) ? \`\${err.code}: \${err.message}\` : err);
  process.exitCode = 1;
});
`;

/** The first ts code block of the workspace README's "## Library API" section. */
function readmeExample(): string {
  const readme = fs.readFileSync(
    path.resolve(__dirname, '..', '..', '..', 'packages', 'workspace', 'README.md'),
    'utf8',
  );
  const open = readme.indexOf('```ts\n', readme.indexOf('\n## Library API\n'));
  return readme.slice(open + 6, readme.indexOf('\n```', open + 6) + 1);
}

describe('a strict TypeScript program against the packed @trufflepig/workspace', () => {
  const repoRoot = path.resolve(__dirname, '..', '..', '..');
  let tarballs: string[];
  let project: string;
  let root: string;
  let compiled: ReturnType<typeof spawnSync>;
  /** Runs a compiled program of the project on the repository, with its own cache. */
  const run = (file: string) =>
    spawnSync(process.execPath, [path.join(project, 'dist', file), root], {
      cwd: project,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...cleanEnv(), XDG_CACHE_HOME: path.join(project, '.cache') },
    });

  beforeAll(() => {
    const started = Date.now();
    tarballs = packAll(tempDir('lib-pack'), ['@trufflepig/workspace']);
    project = tempDir('consumer');
    // A project install takes the packages allowed to run install scripts from package.json
    // (npm 11 refuses --allow-scripts there): the native modules compile as for the CLI.
    const allowScripts = Object.fromEntries(withInstallScripts(['@trufflepig/workspace']).map((name) => [name, true]));
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'tp-consumer', version: '1.0.0', private: true, allowScripts }, null, 2),
    );
    const npm = spawnSync(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--fetch-retries=0',
        '--no-package-lock',
        `--@trufflepig:registry=${DEAD_REGISTRY}`,
        ...tarballs,
      ],
      { cwd: project, encoding: 'utf8', env: cleanEnv(), timeout: 480_000 },
    );
    if (npm.status !== 0) throw new Error(`npm install failed (exit ${npm.status}):\n${npm.stderr.slice(-3000)}`);
    process.stderr.write(
      `install.test: packed and installed the library in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );

    fs.mkdirSync(path.join(project, 'src'));
    fs.writeFileSync(path.join(project, 'src', 'consumer.ts'), CONSUMER_TS);
    fs.writeFileSync(path.join(project, 'src', 'example.ts'), readmeExample());
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify(
        {
          compilerOptions: {
            strict: true,
            target: 'ES2022',
            lib: ['ES2022'],
            module: 'node16',
            moduleResolution: 'node16',
            outDir: 'dist',
            rootDir: 'src',
            // Node's types from the repository (the project installs only the tarballs).
            typeRoots: [path.join(repoRoot, 'node_modules', '@types')],
            types: ['node'],
            // Every declaration the packages ship is checked too (no skipLibCheck): a
            // consumer's strict build must not need anything the packages do not bring.
          },
          include: ['src'],
        },
        null,
        2,
      ),
    );
    compiled = spawnSync(path.join(repoRoot, 'node_modules', '.bin', 'tsc'), ['-p', project], {
      cwd: project,
      encoding: 'utf8',
      env: cleanEnv(),
      timeout: 180_000,
    });

    const base = tempDir('consumer-repo');
    root = path.join(base, 'root');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.mkdirSync(path.join(root, 'web'));
    fs.writeFileSync(path.join(root, 'src', 'bucket.rs'), BUCKET_RS);
    fs.writeFileSync(path.join(root, 'web', 'client.ts'), CLIENT_TS);
    git(root, 'init', '-q');
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'token bucket');
  }, 720_000);

  test('the tarballs are the library and its @trufflepig dependencies, installed as copies', () => {
    const names = tarballs.map((t) => path.basename(t));
    expect(names).toContain(`trufflepig-workspace-${CLI_VERSION}.tgz`);
    expect(names.some((n) => n.startsWith('trufflepig-mcp') || n === `trufflepig-${CLI_VERSION}.tgz`)).toBe(false);
    const installed = fs.realpathSync(path.join(project, 'node_modules', '@trufflepig', 'workspace'));
    expect(installed.startsWith(project + path.sep)).toBe(true);
  });

  test('tsc with strict compiles the program and the README example against the installed package', () => {
    expect(`${compiled.stdout}${compiled.stderr}`).toBe('');
    expect(compiled.status).toBe(0);
  });

  test('the program runs on a real repository: typed hits, a verified read, refs, map, ctx, a typed error code', () => {
    const r = run('consumer.js');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({
      kind: 'root',
      state: 'complete',
      path: 'src/bucket.rs',
      verified: 'revision',
      map: 'map prefix src/bucket.rs',
      container: 'TokenBucket',
      code: 'unknown_result',
    });
    expect(out.text).toBe(
      BUCKET_RS.split('\n')
        .slice((out.startLine as number) - 1, out.endLine as number)
        .join('\n'),
    );
    expect(String(out.refs).split(' ')[0]).toBe('refs');
    expect(String(out.refs).split(' ')[1].split(',')).toContain('declaration:resolved');
    expect(out.codes).toBeGreaterThan(50);
  });

  test('the README example runs as written', () => {
    const r = run('example.js');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^coverage: complete /);
    expect(r.stdout).toMatch(/^[0-9a-z]{6,}:1 src\/bucket\.rs:\d+-\d+ /m);
    expect(r.stdout).toContain('pub fn refill_tokens(&mut self, n: u32) {');
  });
});

describe('declared dependencies', () => {
  /** `@trufflepig/NAME` of every import, require or import() in a project's sources (comments never match: they are not quoted specifiers). */
  function importedPackages(srcDir: string): Set<string> {
    const out = new Set<string>();
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) {
          for (const m of fs
            .readFileSync(p, 'utf8')
            .matchAll(/(?:from\s+|require\(|import\()'(@trufflepig\/[a-z-]+)[^']*'/g))
            out.add(m[1]);
        }
      }
    };
    walk(srcDir);
    return out;
  }

  it('every @trufflepig package a project imports is in its package.json dependencies (an installed copy resolves nothing else)', () => {
    const repo = path.resolve(__dirname, '..', '..', '..');
    const projects = [path.join(repo, 'apps', 'cli'), ...WORKSPACE_PACKAGES.map((p) => path.join(repo, 'packages', p))];
    for (const dir of projects) {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name: string;
        dependencies?: Record<string, string>;
      };
      const missing = [...importedPackages(path.join(dir, 'src'))].filter(
        (n) => n !== pkg.name && !(n in (pkg.dependencies ?? {})),
      );
      expect({ project: pkg.name, missing }).toEqual({ project: pkg.name, missing: [] });
    }
  });
});
