// Install from packed tarballs (docs/install.md): tools/pack/pack.js packs the CLI and the
// @trufflepig/* packages it uses, one `npm install -g --prefix TMP` installs them, and the
// installed bin runs on a real, committed Git repository from another directory. Needs
// the built packages (the test target builds them) and an npm cache or registry for the
// third-party packages; @trufflepig/* is pointed at a dead registry, so the tarballs must
// resolve each other.
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
const WORKSPACE_PACKAGES = ['config', 'history', 'index', 'mcp', 'member-root', 'rank', 'render', 'result-cache', 'runtime', 'workspace'];
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
const CLIENT_TS = "export function scheduleRefill(every: number): void {\n  setInterval(() => every, every);\n}\n";

/**
 * The environment of a user's shell: without the npm_* variables of the npm/npx that started
 * jest, and without the FORCE_COLOR that nx sets (beside TEST_ENV's NO_COLOR it makes Node
 * warn on stderr at every start).
 */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(TEST_ENV).filter(([k]) => !k.toLowerCase().startsWith('npm_') && k !== 'FORCE_COLOR'));
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
  const installed = (...args: string[]) => spawnSync(bin, args, { cwd: os.tmpdir(), encoding: 'utf8', env: cleanEnv(), timeout: 60_000 });

  beforeAll(() => {
    const started = Date.now();
    tarballs = packAll(tempDir('pack'), ['trufflepig']);
    prefix = tempDir('prefix');
    const npm = spawnSync('npm', [
      'install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--fetch-retries=0',
      `--allow-scripts=${withInstallScripts(['trufflepig']).join(',')}`, `--@trufflepig:registry=${DEAD_REGISTRY}`, ...tarballs,
    ], { cwd: os.tmpdir(), encoding: 'utf8', env: cleanEnv(), timeout: 480_000 });
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
    for (const resolved of [facade, index, require.resolve('tree-sitter', { paths: [index] }), require.resolve('tree-sitter-rust', { paths: [index] })]) {
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
    expect((JSON.parse(sym.stdout) as { hits: { path: string; name?: string }[] }).hits[0]).toMatchObject({ path: 'web/client.ts', name: 'scheduleRefill' });

    const lines = installed('--no-daemon', '--root', root, '--cache', cache, 'show', 'sym:TokenBucket');
    expect(lines.status).toBe(0);
    expect(lines.stdout).toContain('src/bucket.rs');
    expect(lines.stdout).toContain('pub struct TokenBucket');
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
          for (const m of fs.readFileSync(p, 'utf8').matchAll(/(?:from\s+|require\(|import\()'(@trufflepig\/[a-z-]+)[^']*'/g)) out.add(m[1]);
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
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name: string; dependencies?: Record<string, string> };
      const missing = [...importedPackages(path.join(dir, 'src'))].filter((n) => n !== pkg.name && !(n in (pkg.dependencies ?? {})));
      expect({ project: pkg.name, missing }).toEqual({ project: pkg.name, missing: [] });
    }
  });
});
