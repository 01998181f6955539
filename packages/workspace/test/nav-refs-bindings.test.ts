// refs and the names a file binds (an agent trial on rxjs, 2026-12-05): a function imported
// under another name is called by that name (`import { refCount as higherOrderRefCount }`),
// and a parameter or a local variable of the name is another variable (an unresolved site). Real repository,
// real tree-sitter parses (TypeScript, Python, JavaScript). And (an agent trial on Django)
// a Python method is never called from JavaScript, nor a method by a bare call in Python.
import { mapCommand, showCommand } from '../src';
import { ctxLinesOf, indexedRepo, refsSites, type IndexedRepo } from './ws-helpers';

/** `ctx` of the definition `sym:NAME` lands on: its output lines. */
const ctxOf = (repo: IndexedRepo, name: string): Promise<string[]> => ctxLinesOf(repo, [`sym:${name}`]);

/** Its callee rows as `PATH:LINE KIND NAME [candidate]`. */
const calleeRows = (out: readonly string[]): string[] =>
  out.filter((l) => l.startsWith('callee:')).map((l) => l.split('\t').slice(1).join(' '));

const FILES = {
  'src/operators/refCount.ts': 'export function refCount<T>(): (s: T) => T {\n  return (s) => s;\n}\n',
  'src/observable/Connectable.ts': [
    "import { refCount as higherOrderRefCount } from '../operators/refCount';",
    '',
    'export class Connectable<T> {',
    '  refCount(): (s: T) => T {',
    '    return higherOrderRefCount<T>();',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/operators/share.ts': [
    "import { refCount } from './refCount';",
    '',
    'export function share<T>(source: T): T {',
    '  let refCount = 0;',
    '  refCount++;',
    '  return refCount > 0 ? source : source;',
    '}',
    '',
    'export function shareWith<T>(source: T): T {',
    '  return refCount<T>()(source);',
    '}',
    '',
  ].join('\n'),
  'src/Subject.ts': 'export class Subject {\n  error(err: unknown): void {\n    throw err;\n  }\n}\n',
  'src/lift.ts':
    'export function operate(this: Record<string, (e: unknown) => void>, err: unknown): void {\n  this.error(err);\n}\n',
  'lib/timing.py': 'def elapsed(start):\n    return start\n',
  // A minified line: the name 500 characters in.
  'dist/bundle.min.js': `var a=${'1+'.repeat(250)}1;function b(){return refCount()}\n`,
  'lib/report.py': [
    'from lib.timing import elapsed as took',
    '',
    '',
    'def report(start, elapsed=None):',
    '    if elapsed is None:',
    '        elapsed = took(start)',
    '    return elapsed',
    '',
    '',
    'def summary(start):',
    '    return took(start)',
    '',
  ].join('\n'),
};

describe('refs through the names a file binds', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-refs-bindings-', FILES);
  });

  it('lists the calls of a function imported under another name, resolved through the import', async () => {
    const sites = (await refsSites(repo, ['refCount']))
      .filter((s) => s.role === 'call' && !s.path.startsWith('dist/'))
      .map((s) => `${s.path}:${s.start_line} ${s.resolution} ${s.definition ?? ''}`);
    expect(sites).toEqual([
      'src/observable/Connectable.ts:5 resolved src/operators/refCount.ts:1',
      'src/operators/share.ts:10 resolved src/operators/refCount.ts:1',
    ]);
  });

  it("marks a local variable of the name and its uses unresolved, not the same file's other functions", async () => {
    const share = (await refsSites(repo, ['refCount']))
      .filter((s) => s.path === 'src/operators/share.ts')
      .map((s) => `${s.start_line} ${s.role} ${s.resolution}`);
    expect(share).toEqual([
      '10 call resolved',
      '4 local unresolved',
      '5 reference unresolved',
      '6 reference unresolved',
      '1 import resolved',
    ]);
  });

  it("ctx: another type's method through this is a candidate callee", async () => {
    const out = await ctxOf(repo, 'operate');
    expect(calleeRows(out)).toEqual(['src/Subject.ts:2 method Subject::error candidate']);
  });

  it("cuts a long line's text around the name, as a search's evidence is", async () => {
    const [site] = (await refsSites(repo, ['refCount'])).filter((s) => s.path === 'dist/bundle.min.js');
    const text = (site as unknown as { text: string }).text;
    expect(text).toContain('refCount()');
    expect(text.startsWith('…')).toBe(true);
    expect([...text].length).toBeLessThanOrEqual(160);
  });

  it('does so in Python: a renamed import called, a parameter of the name unresolved', async () => {
    const sites = (await refsSites(repo, ['elapsed'])).map(
      (s) => `${s.path}:${s.start_line} ${s.role} ${s.resolution}`,
    );
    expect(sites).toEqual([
      'lib/report.py:6 call resolved',
      'lib/report.py:11 call resolved',
      'lib/report.py:4 local unresolved',
      'lib/report.py:5 reference unresolved',
      'lib/report.py:6 reference unresolved',
      'lib/report.py:7 reference unresolved',
      'lib/report.py:1 import resolved',
      'lib/timing.py:1 declaration resolved',
    ]);
  });
});

const DJANGO = {
  'db/query.py': [
    'class QuerySet:',
    '    def filter(self, *args):',
    '        return self',
    '',
    '    def get(self, pk):',
    '        return self.filter(pk)',
    '',
  ].join('\n'),
  'utils/datastructures.py': 'class MultiValueDict:\n    def dict(self):\n        return {}\n',
  'views.py': ['def listing(qs):', '    params = dict(page=1)', '    return qs.filter(params)', ''].join('\n'),
  'static/admin/actions.js': 'export function checked(rows) {\n  return rows.filter((r) => r.checked);\n}\n',
};

describe('refs and ctx across languages', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-refs-languages-', DJANGO);
  });

  it('refs A::b lists no site in another language family, its resolved sites first', async () => {
    const sites = (await refsSites(repo, ['QuerySet::filter'])).map(
      (s) => `${s.path}:${s.start_line} ${s.role} ${s.resolution}`,
    );
    expect(sites).toEqual([
      'db/query.py:6 call resolved',
      'views.py:3 call candidate',
      'db/query.py:2 declaration resolved',
    ]);
  });

  it('refs of a bare name lists the other family its occurrences as unresolved', async () => {
    const js = (await refsSites(repo, ['filter'])).filter((s) => s.path.endsWith('.js'));
    expect(js.map((s) => `${s.start_line} ${s.resolution}`)).toEqual(['2 unresolved']);
  });

  it('reads QuerySet.filter as QuerySet::filter in refs and show sym:', async () => {
    const dotted = (await refsSites(repo, ['QuerySet.filter'])).map((s) => `${s.path}:${s.start_line}`);
    expect(dotted).toEqual((await refsSites(repo, ['QuerySet::filter'])).map((s) => `${s.path}:${s.start_line}`));
    expect(dotted).toHaveLength(3);
    const shown = (await showCommand('sym:QuerySet.filter', repo.at())).stdout.split('\n');
    expect(shown[0]).toMatch(/^[0-9a-z]{6,}:1 {2}db\/query\.py:2-3 {2}QuerySet::filter$/);
  });

  it("ctx's callees: a bare call in Python is no method, a call is no other language's", async () => {
    const out = await ctxOf(repo, 'listing');
    expect(calleeRows(out)).toEqual(['db/query.py:2 method QuerySet::filter candidate']);
  });
});

describe('ctx callees named by a path', () => {
  // tokio (an agent trial): `context::budget(...)` was coop.rs's own `budget`, and
  // `Cell::new` the `new` of an unrelated file.
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-ctx-paths-', {
      'Cargo.toml': '[package]\nname = "rt"\nversion = "0.1.0"\n',
      'src/lib.rs': '#[macro_use]\nmod macros;\nmod context;\nmod coop;\nmod sys;\n',
      'src/macros.rs': 'macro_rules! cfg_coop {\n    ($($item:item)*) => { $($item)* };\n}\n',
      'src/context.rs': 'pub(crate) fn budget() -> u32 {\n    1\n}\n',
      'src/sys.rs': 'pub fn new() -> u32 {\n    0\n}\n',
      'src/coop.rs': [
        'use std::cell::Cell;',
        'use crate::context;',
        '',
        'cfg_coop! {',
        '    pub(crate) fn enabled() -> bool { true }',
        '}',
        '',
        'pub(crate) struct Budget(Option<u8>);',
        '',
        'impl Budget {',
        '    pub(crate) const fn unconstrained() -> Budget {',
        '        Budget(None)',
        '    }',
        '}',
        '',
        'fn budget() -> u32 {',
        '    2',
        '}',
        '',
        'pub(crate) fn poll_proceed() -> u32 {',
        '    let cell = Cell::new(Budget::unconstrained());',
        '    context::budget() + budget()',
        '}',
        '',
      ].join('\n'),
    });
  });

  it('resolve by the path, and a path imported from outside to nothing', async () => {
    const out = await ctxOf(repo, 'poll_proceed');
    const callees = calleeRows(out);
    expect(callees).toEqual(
      expect.arrayContaining([
        'src/coop.rs:11 method Budget::unconstrained',
        'src/context.rs:1 function budget',
        'src/coop.rs:16 function budget',
      ]),
    );
    expect(callees.some((c) => c.startsWith('src/sys.rs'))).toBe(false);
    expect(out).toContainEqual(expect.stringMatching(/^unresolved callees: .*\bnew\b/));
  });

  it("resolves a Rust macro's calls to its one macro_rules! definition, never imported", async () => {
    const sites = (await refsSites(repo, ['cfg_coop'])).map(
      (s) => `${s.path}:${s.start_line} ${s.role} ${s.resolution}`,
    );
    expect(sites).toEqual(['src/coop.rs:4 call resolved', 'src/macros.rs:1 declaration resolved']);
  });
});

describe('Python calls on a module an import binds', () => {
  // SQLAlchemy (an MCP trial): `time.time()` after `import time` was a candidate call of a
  // test suite's `SuiteRequirements::time`; a module of the repository is followed.
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-ctx-pymodules-', {
      'pkg/__init__.py': '',
      'pkg/clock.py': 'def time():\n    return 0\n',
      'pkg/testing/requirements.py': 'class SuiteRequirements:\n    def time(self):\n        return 1\n',
      'pkg/pool.py': [
        'import time',
        'from pkg import clock as clk',
        'import pkg.clock',
        'import pkg.clock as pc',
        '',
        'class Record:',
        '    def checkout(self):',
        '        started = time.time()',
        '        return pc.time() - started',
        '',
      ].join('\n'),
    });
  });

  it('ctx: a module outside the repository reaches no callee, one inside it its function', async () => {
    const out = await ctxOf(repo, 'Record::checkout');
    const callees = calleeRows(out);
    expect(callees).toEqual(['pkg/clock.py:1 function time']);
    expect(out).toContainEqual(expect.stringMatching(/^unresolved callees: .*\btime\b/));
  });

  it('refs: the call on the outside module is no site of the method', async () => {
    const sites = (await refsSites(repo, ['SuiteRequirements::time'])).filter((s) => s.path === 'pkg/pool.py');
    expect(sites).toEqual([]);
  });
});

describe('Python calls on a submodule a package import binds', () => {
  // SQLAlchemy (an agent trial): `util.warn(...)` after `from .. import util` was a
  // candidate call of `FromLinter::warn`; the package's `__init__.py` re-exports `warn`.
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-ctx-pysubmodule-', {
      'pkg/__init__.py': '',
      'pkg/util/__init__.py': 'from .helpers import warn\nfrom .helpers import quote\n',
      'pkg/util/helpers.py': 'def warn(msg):\n    print(msg)\n\ndef quote(s):\n    return s\n',
      'pkg/sql/__init__.py': '',
      'pkg/sql/compiler.py': 'class FromLinter:\n    def warn(self, stmt):\n        return stmt\n',
      'pkg/sql/functions.py': [
        'from .. import util',
        'from . import compiler as comp',
        '',
        'def register(name):',
        '    util.warn(name)',
        '    return comp.FromLinter()',
        '',
      ].join('\n'),
    });
  });

  it('ctx: the callee is the function the package re-exports, not a method of that name', async () => {
    const callees = calleeRows(await ctxOf(repo, 'register'));
    expect(callees).toContain('pkg/util/helpers.py:1 function warn');
    expect(callees.some((c) => c.includes('FromLinter::warn'))).toBe(false);
  });

  it('refs: the call through the submodule is a resolved site of the function, none of the method', async () => {
    const warn = (await refsSites(repo, ['warn'])).filter((s) => s.path === 'pkg/sql/functions.py');
    expect(warn.map((s) => `${s.start_line} ${s.role} ${s.resolution}`)).toEqual(['5 call resolved']);
    const method = (await refsSites(repo, ['FromLinter::warn'])).filter((s) => s.path === 'pkg/sql/functions.py');
    expect(method).toEqual([]);
  });
});

describe('a qualified call of a name its own file defines', () => {
  // Flask in a workspace with werkzeug (an agent trial): `werkzeug.utils.send_file(...)`
  // inside flask's own `send_file` was a resolved call of itself.
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-ctx-pyqualified-', {
      'flask/helpers.py': [
        'import werkzeug.utils',
        '',
        'def send_file(path):',
        '    return werkzeug.utils.send_file(path)',
        '',
        'def download(p):',
        '    return send_file(p)',
        '',
      ].join('\n'),
      'web/app.js': [
        'function send(res) {',
        '  return res.send(1);',
        '}',
        'exports.reply = function (res) {',
        '  return exports.reply(res);',
        '};',
        '',
      ].join('\n'),
    });
  });

  it("refs: the qualified call is not the file's own function; the bare one is", async () => {
    const sites = (await refsSites(repo, ['send_file'])).map((s) => `${s.start_line} ${s.role} ${s.resolution}`);
    expect(sites).toEqual(expect.arrayContaining(['4 call unresolved', '7 call resolved']));
    const js = (await refsSites(repo, ['send'])).filter((s) => s.role === 'call');
    expect(js.map((s) => `${s.start_line} ${s.resolution}`)).toEqual(['2 unresolved']);
  });

  it('ctx: no call of itself, one caller', async () => {
    const out = await ctxOf(repo, 'send_file');
    expect(calleeRows(out)).toEqual([]);
    expect(out).toContainEqual(expect.stringMatching(/^unresolved callees: .*\bsend_file\b/));
    expect(out.filter((l) => l.startsWith('caller:')).map((l) => l.split('\t').slice(1).join(' '))).toEqual([
      'flask/helpers.py:7 in download',
    ]);
  });
});

describe('PHP spellings of a name', () => {
  // Symfony (an agent trial): a namespaced name from a `use` line and a static property
  // with its `$` answered no_definition and 0 sites, with no hint.
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-php-names-', {
      'src/Http/Request.php': [
        '<?php',
        'namespace App\\Http;',
        '',
        'class Request',
        '{',
        '    protected static $trustedProxies = [];',
        '',
        '    public static function setTrustedProxies(array $proxies): void',
        '    {',
        '        self::$trustedProxies = $proxies;',
        '    }',
        '}',
        '',
      ].join('\n'),
      'src/Color.php': [
        '<?php',
        'namespace App;',
        '',
        'final class Color',
        '{',
        '    final public function apply(string $text): string',
        '    {',
        '        return $text;',
        '    }',
        '}',
        '',
      ].join('\n'),
      'src/Cookie.php': [
        '<?php',
        'namespace App;',
        '',
        'class Cookie',
        '{',
        '    private $sameSite;',
        '',
        '    public function __construct(?string $sameSite = null)',
        '    {',
        '        $this->sameSite = strtolower($sameSite);',
        '    }',
        '',
        '    public function getSameSite(): ?string',
        '    {',
        '        return $this->sameSite;',
        '    }',
        '',
        '    public static function create(): self',
        '    {',
        "        return new self('lax');",
        '    }',
        '}',
        '',
      ].join('\n'),
      'src/Str/AbstractString.php':
        '<?php\nnamespace App\\Str;\n\nabstract class AbstractString\n{\n    public function split(string $d): array\n    {\n        return [$d];\n    }\n}\n',
      'src/Str/AbstractUnicodeString.php':
        '<?php\nnamespace App\\Str;\n\nabstract class AbstractUnicodeString extends AbstractString\n{\n}\n',
      'src/Str/UnicodeString.php': [
        '<?php',
        'namespace App\\Str;',
        '',
        'class UnicodeString extends AbstractUnicodeString',
        '{',
        '    public function split(string $d): array',
        '    {',
        "        return parent::split($d.'u');",
        '    }',
        '}',
        '',
      ].join('\n'),
      'src/HeaderUtils.php':
        '<?php\nnamespace App;\n\nclass HeaderUtils\n{\n    public static function split(string $h): array\n    {\n        return [$h];\n    }\n}\n',
      'src/InvalidArgumentException.php': [
        '<?php',
        'namespace App;',
        '',
        'class InvalidArgumentException extends \\InvalidArgumentException',
        '{',
        '    public function __construct(string $m)',
        '    {',
        '        parent::__construct($m);',
        '    }',
        '}',
        '',
      ].join('\n'),
      'src/Kernel.php': [
        '<?php',
        'namespace App;',
        '',
        'use App\\Http\\Request;',
        '',
        'function boot(): void',
        '{',
        "    Request::setTrustedProxies(['10.0.0.1']);",
        '}',
        '',
        'function make(): Cookie',
        '{',
        "    return new Cookie('lax');",
        '}',
        '',
      ].join('\n'),
    });
  });

  it('reads a namespaced name as its last segment in show sym: and refs', async () => {
    const shown = (await showCommand('sym:App\\Http\\Request', repo.at())).stdout.split('\n');
    expect(shown[0]).toMatch(/ {2}src\/Http\/Request\.php:4-12 {2}Request$/);
    const sites = (await refsSites(repo, ['\\App\\Http\\Request::setTrustedProxies'])).map(
      (s) => `${s.path}:${s.start_line} ${s.role}`,
    );
    expect(sites).toContainEqual('src/Kernel.php:8 call');
  });

  it('reads a static property spelled with its $', async () => {
    const shown = (await showCommand('sym:Request::$trustedProxies', repo.at())).stdout.split('\n');
    expect(shown[0]).toMatch(/ {2}src\/Http\/Request\.php:6 {2}Request::trustedProxies$/);
  });

  it("map names a final class and a final method as final (Symfony's Color was a plain class)", async () => {
    const rows = (await mapCommand(['src/Color.php'], repo.at())).stdout.split('\n');
    expect(rows).toContainEqual(expect.stringMatching(/ 4-10 final class Color$/));
    expect(rows).toContainEqual(expect.stringMatching(/ 6-9 final method apply$/));
  });

  it("refs Owner::prop lists no $variable of the name, as a bare name's refs list them unresolved", async () => {
    const rows = (words: string[]) =>
      refsSites(repo, words).then((sites) =>
        sites.filter((s) => s.path === 'src/Cookie.php').map((s) => `${s.start_line} ${s.role} ${s.resolution}`),
      );
    expect(await rows(['Cookie::sameSite'])).toEqual([
      '10 member resolved',
      '15 member resolved',
      '6 declaration resolved',
    ]);
    expect(await rows(['sameSite'])).toEqual(expect.arrayContaining(['8 local unresolved', '10 reference unresolved']));
  });

  it("resolves self::$prop in its class, and parent::b by the classes the caller's class extends", async () => {
    const rows = async (words: string[]) =>
      (await refsSites(repo, words)).map((s) => `${s.path}:${s.start_line} ${s.role} ${s.resolution}`);
    expect(await rows(['Request::trustedProxies'])).toContainEqual('src/Http/Request.php:10 reference resolved');
    // UnicodeString extends AbstractUnicodeString, which extends AbstractString, which defines split.
    expect(await rows(['AbstractString::split'])).toContainEqual('src/Str/UnicodeString.php:8 call resolved');
    expect((await rows(['HeaderUtils::split'])).filter((r) => r.includes('UnicodeString'))).toEqual([]);
    // Its parent is PHP's own \InvalidArgumentException, outside the index: no constructor of it.
    expect((await rows(['Cookie::__construct'])).filter((r) => r.includes('InvalidArgument'))).toEqual([]);
  });

  it('refs A::__construct lists the calls that construct an A', async () => {
    const sites = (await refsSites(repo, ['Cookie::__construct'])).map(
      (s) => `${s.path}:${s.start_line} ${s.role} ${s.resolution} ${s.definition ?? ''}`,
    );
    expect(sites).toEqual([
      'src/Cookie.php:20 call resolved src/Cookie.php:8',
      'src/Kernel.php:13 call resolved src/Cookie.php:8',
      'src/Cookie.php:8 declaration resolved src/Cookie.php:8',
    ]);
  });

  it("a directory's map rows leave out each PHP file's namespace", async () => {
    const rows = (await mapCommand(['src/Str/'], repo.at())).stdout.split('\n');
    expect(rows).toContainEqual(expect.stringMatching(/ src\/Str\/UnicodeString\.php .*UnicodeString$/));
    expect(rows.join('\n')).not.toMatch(/\bApp\b/);
  });
});

describe('a PHP name with its namespace among namesakes', () => {
  // Doctrine DBAL (a PHP trial): `show sym:Doctrine\DBAL\Driver\Connection` read the wrapper
  // class src/Connection.php, the namespace dropped; `Doctrine\DBAL\Result` a driver's Result.
  let repo: IndexedRepo;
  beforeAll(async () => {
    const file = (ns: string, decl: string) => `<?php\nnamespace ${ns};\n\n${decl}\n{\n}\n`;
    repo = await indexedRepo('tp-php-namespaces-', {
      'src/Connection.php': file('Doctrine\\DBAL', 'class Connection'),
      'src/Driver/Connection.php': file('Doctrine\\DBAL\\Driver', 'interface Connection'),
      'src/Driver/Mysqli/Connection.php': file('Doctrine\\DBAL\\Driver\\Mysqli', 'final class Connection'),
      'src/Result.php': file('Doctrine\\DBAL', 'class Result'),
      'src/Driver/IBMDB2/Result.php': file('Doctrine\\DBAL\\Driver\\IBMDB2', 'final class Result'),
    });
  });

  it.each([
    ['Doctrine\\DBAL\\Driver\\Connection', 'src/Driver/Connection.php'],
    ['\\Doctrine\\DBAL\\Driver\\Mysqli\\Connection', 'src/Driver/Mysqli/Connection.php'],
    ['Doctrine\\DBAL\\Connection', 'src/Connection.php'],
    ['Driver\\Connection', 'src/Driver/Connection.php'],
    ['Doctrine\\DBAL\\Result', 'src/Result.php'],
  ])('show sym:%s reads %s', async (name, path) => {
    const shown = (await showCommand(`sym:${name}`, repo.at())).stdout.split('\n');
    expect(shown[0].split(/\s+/)[1]).toMatch(new RegExp(`^${path.replace(/[./]/g, '\\$&')}:`));
  });
});
