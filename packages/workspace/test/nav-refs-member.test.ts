// `refs A::b` counts an occurrence of b as a site of A::b by what qualifies it, not by the
// file it sits in (memberSite in @trufflepig/navigation refs.ts). An agent trial on serde_json and click found
// `refs PrettyFormatter::new` listing `Vec::new` and `itoa::Buffer::new` as resolved calls,
// and `refs Context::invoke` resolving `self.invoke` inside another class. Real repositories,
// real tree-sitter parses.
import { mapCommand, refsCommand, searchCommand } from '../src';
import { indexedRepo, json, refsSites, type IndexedRepo } from './ws-helpers';

const RUST = {
  'src/ser.rs': [
    'pub struct Serializer<W> { writer: W }',
    'impl<W> Serializer<W> {',
    '    pub fn new(writer: W) -> Self {',
    '        let buf = itoa::Buffer::new();',
    '        Serializer { writer }',
    '    }',
    '    pub fn pretty(writer: W) -> Self {',
    '        let _f = PrettyFormatter::new();',
    '        let _v: Vec<u8> = Vec::new();',
    '        Serializer::new(writer)',
    '    }',
    '}',
    'pub struct PrettyFormatter { indent: usize }',
    'impl PrettyFormatter {',
    '    pub fn new() -> Self {',
    '        PrettyFormatter { indent: 2 }',
    '    }',
    '}',
    'impl Default for PrettyFormatter {',
    '    fn default() -> Self {',
    '        Self::new()',
    '    }',
    '}',
    '',
  ].join('\n'),
  'src/lib.rs':
    'mod ser;\npub fn make() -> ser::PrettyFormatter {\n    ser::PrettyFormatter::new()\n}\npub fn other() -> String {\n    String::new()\n}\n',
};

const PYTHON = {
  'pkg/core.py': [
    'class Context:',
    '    def invoke(self, callback):',
    '        return callback()',
    '',
    '    def forward(self, cmd):',
    '        return self.invoke(cmd)',
    '',
    '',
    'class Command:',
    '    def invoke(self, ctx):',
    '        return ctx.invoke(self.callback)',
    '',
    '    def main(self, ctx):',
    '        return self.invoke(ctx)',
    '',
    '',
    'class Group(Command):',
    '    def run(self, ctx):',
    '        return super().invoke(ctx)',
    '',
  ].join('\n'),
  'pkg/env.py':
    'class Environment:\n    def __init__(self, cache_size=400):\n        self.cache = create_cache(cache_size)\n',
  'pkg/order.py': [
    'class Queue:',
    '    def reverse(self):',
    '        return self',
    '',
    '',
    'def newest(items, queue):',
    '    queue.reverse()',
    '    return sorted(items,',
    '                  reverse=True)',
    '',
  ].join('\n'),
};

// PHP reaches its own members through `$this->` and `static::`, and its parent's through
// `parent::` (an agent trial on Symfony Console: `refs Output::__construct` counted the
// declaration alone, and every `$this->` call was a candidate).
const PHP = {
  'src/Output.php': [
    '<?php',
    'namespace App;',
    'class Output',
    '{',
    '    public function __construct(int $verbosity)',
    '    {',
    '        $this->write("start");',
    '    }',
    '    public function write(string $m): void',
    '    {',
    '    }',
    '    public static function make(): static',
    '    {',
    '        return static::create();',
    '    }',
    '    private $verbosity = 1;',
    '    public function setVerbosity(int $verbosity): void',
    '    {',
    '        $this->verbosity = $verbosity;',
    '    }',
    '    public static function create(): static',
    '    {',
    '        return new static(1);',
    '    }',
    '}',
    '',
  ].join('\n'),
  'src/StreamOutput.php': [
    '<?php',
    'namespace App;',
    'class StreamOutput extends Output',
    '{',
    '    public function __construct($stream)',
    '    {',
    '        parent::__construct(2);',
    '    }',
    '}',
    '',
  ].join('\n'),
  'src/Runner.php': [
    '<?php',
    'namespace App;',
    'class Runner',
    '{',
    '    public function run(): void',
    '    {',
    "        (new Logger)->write('a');",
    "        (new Output(1))->write('b');",
    "        (new StreamOutput(null))->write('c');",
    '    }',
    '}',
    '',
  ].join('\n'),
};

// C++ calls its own and inherited members bare (an agent trial on JUCE: `refs
// AudioProcessor::setPlayConfigDetails` dropped the subclasses' bare calls).
const CPP = {
  'src/processor.h': [
    'class Processor',
    '{',
    'public:',
    '    void setup (int channels);',
    '    void prepare() { setup (2); }',
    '};',
    '',
    'class Plugin : public Processor',
    '{',
    'public:',
    '    void initialise() { setup (4); }',
    '};',
    '',
    'class Other',
    '{',
    'public:',
    '    void setup (int channels);',
    '    void run() { setup (1); }',
    '};',
    '',
    'void setup (int channels);',
    'void boot() { setup (8); }',
    '',
  ].join('\n'),
  // Objective-C++, which no extractor reads: its call is text to the index.
  'src/bridge.mm': '#include "processor.h"\n\nvoid bridge (Processor* p) { p->setup (3); }\n',
  'docs/setup.md': '# setup\n\nCall setup first.\n',
};

let rust: IndexedRepo;
let python: IndexedRepo;
let php: IndexedRepo;
let cpp: IndexedRepo;
const rows = (stdout: string) => stdout.trimEnd().split('\n');

beforeAll(async () => {
  rust = await indexedRepo('tp-refs-member-rs-', RUST);
  python = await indexedRepo('tp-refs-member-py-', PYTHON);
  php = await indexedRepo('tp-refs-member-php-', PHP);
  cpp = await indexedRepo('tp-refs-member-cpp-', CPP);
});

describe('refs A::b', () => {
  it("lists A::b's own call sites and declaration, never another type's b", async () => {
    const out = rows((await refsCommand(['PrettyFormatter::new'], rust.at())).stdout);
    expect(out[0]).toMatch(/^refs PrettyFormatter::new → src\/ser\.rs:15 /);
    expect(out.slice(1)).toEqual([
      'src/lib.rs',
      '1 3 call in make: ser::PrettyFormatter::new()',
      'src/ser.rs',
      '2 8 call in Serializer::pretty: let _f = PrettyFormatter::new();',
      '3 21 call in PrettyFormatter::default: Self::new()',
      '4 15 declaration: pub fn new() -> Self {',
      'coverage: 4 sites in 2 files (4 resolved, 0 candidate, 0 unresolved)',
    ]);
  });

  it('resolves self inside A, leaves other receivers candidates, and drops a type that defines b itself', async () => {
    const out = rows((await refsCommand(['Context::invoke'], python.at())).stdout);
    expect(out.slice(1)).toEqual([
      'pkg/core.py',
      '1 6 call in Context::forward: return self.invoke(cmd)',
      '2 11 call candidate in Command::invoke: return ctx.invoke(self.callback)',
      // Group's parent Command defines invoke: its super().invoke is Command's.
      '3 2 declaration in Context: def invoke(self, callback):',
      'coverage: 3 sites in 1 file (2 resolved, 1 candidate, 0 unresolved)',
    ]);
  });
});

describe('refs A::b in PHP', () => {
  it('resolves $this-> and static:: inside A, and parent:: in a class that extends A', async () => {
    const write = rows((await refsCommand(['Output::write'], php.at())).stdout);
    expect(write.find((r) => / 7 call/.test(r))).toMatch(
      /^\d+ 7 call in Output::__construct: \$this->write\("start"\);$/,
    );
    const create = rows((await refsCommand(['Output::create'], php.at())).stdout);
    expect(create.find((r) => / 14 call/.test(r))).toMatch(/^\d+ 14 call in Output::make: return static::create\(\);$/);
    const construct = rows((await refsCommand(['Output::__construct'], php.at())).stdout);
    expect(construct.find((r) => r.includes('StreamOutput'))).toBe('src/StreamOutput.php');
    expect(construct.find((r) => / 7 call/.test(r))).toMatch(
      /^\d+ 7 call in StreamOutput::__construct: parent::__construct\(2\);$/,
    );
  });
});

describe('refs A::b through a receiver made by new', () => {
  it("is the class's own call, or its subclass's; another class's is none", async () => {
    // Laravel's `(new PhpHandler)->handle(...)` was a candidate caller of
    // `VerifyCsrfToken::handle` (a trial): the `new` names the receiver's class.
    const write = rows((await refsCommand(['Output::write'], php.at())).stdout);
    expect(write.some((r) => r.includes('new Logger'))).toBe(false);
    expect(write.find((r) => / 8 call/.test(r))).toMatch(/^\d+ 8 call in Runner::run: \(new Output\(1\)\)->write/);
    expect(write.find((r) => / 9 call/.test(r))).toMatch(
      /^\d+ 9 call in Runner::run: \(new StreamOutput\(null\)\)->write/,
    );
  });
});

describe('refs A::b in C++', () => {
  it("resolves A's own bare call, keeps a subclass's a candidate, and drops a type or function with its own b", async () => {
    const out = rows((await refsCommand(['Processor::setup'], cpp.at())).stdout);
    const calls = out.filter((r) => / call/.test(r));
    expect(calls).toEqual([
      '1 5 call in Processor::prepare: void prepare() { setup (2); }',
      '2 11 call candidate in Plugin::initialise: void initialise() { setup (4); }',
    ]);
  });
});

describe('refs of a PHP property', () => {
  it('never takes a variable of its name for it', async () => {
    const out = rows((await refsCommand(['verbosity'], php.at())).stdout);
    expect(out.filter((r) => /^\d+ (5|17|19) /.test(r)).map((r) => r.replace(/^\d+ /, ''))).toEqual([
      // The resolved site first (refs orders a band's sites resolved, candidate, unresolved).
      '19 member in Output::setVerbosity: $this->verbosity = $verbosity;',
      '5 local unresolved in Output::__construct: public function __construct(int $verbosity)',
      '17 local unresolved in Output::setVerbosity: public function setVerbosity(int $verbosity): void',
      '19 reference unresolved in Output::setVerbosity: $this->verbosity = $verbosity;',
    ]);
  });
});

describe('refs says what it could not read', () => {
  it('names the code files of unparsed languages that mention the name, not the docs', async () => {
    const out = rows((await refsCommand(['Processor::setup'], cpp.at())).stdout);
    expect(out[out.length - 1]).toMatch(
      /; 1 file in languages not parsed for references mention it: src\/bridge\.mm \(search "setup" lists their lines\)$/,
    );
    const coverage = json(await refsCommand(['setup'], cpp.at({ format: 'json' }))).coverage;
    expect([coverage.unparsed_files, coverage.unparsed_paths]).toEqual([1, ['src/bridge.mm']]);
    const none = json(await refsCommand(['Processor::prepare'], cpp.at({ format: 'json' }))).coverage;
    expect(none.unparsed_files).toBeUndefined();
  });
});

describe('refs of a Python method', () => {
  it('leaves out a keyword argument of its name, which names a parameter of the callee', async () => {
    // Twisted (an agent trial): `refs reverse` listed `sorted(..., reverse=True)` rows.
    const out = rows((await refsCommand(['reverse'], python.at())).stdout);
    expect(out.some((r) => r.includes('reverse=True'))).toBe(false);
    expect(out.find((r) => / 7 /.test(r))).toMatch(/^\d+ 7 call .*queue\.reverse\(\)$/);
  });
});

describe('refs rows say the definition a site is in', () => {
  it('is the method around an attribute assignment, not the attribute it assigns', async () => {
    const out = rows((await refsCommand(['cache_size'], python.at())).stdout);
    expect(out.find((r) => r.startsWith('2 3 '))).toMatch(
      /^2 3 reference \S* ?in Environment::__init__: self\.cache = create_cache\(cache_size\)$/,
    );
  });
});

describe('refs A::b and search A.b in Java', () => {
  // The JDK (an agent trial): `refs HashMap::hash` listed 104 candidates, most of them reads
  // of Node's field `hash`; a bare `TREEIFY_THRESHOLD` inside HashMap was a candidate; and
  // `search HashMap.resize` showed HashMap.java at a call in `compute`.
  const JAVA = [
    'package table;',
    '',
    'public class Table {',
    '    static final int LIMIT = 8;',
    '',
    '    static final int hash(Object key) {',
    '        return key.hashCode();',
    '    }',
    '',
    '    int put(Node first, Object key) {',
    '        if (first.hash == hash(key) && first.hash > LIMIT) {',
    '            return grow();',
    '        }',
    '        return 0;',
    '    }',
    '',
    '    int grow() {',
    '        int LIMIT = 2;',
    '        return LIMIT;',
    '    }',
    '',
    '    static class Node {',
    '        int hash;',
    '    }',
    '}',
    '',
  ].join('\n');
  let java: IndexedRepo;
  beforeAll(async () => {
    java = await indexedRepo('tp-refs-java-', {
      'src/table/Table.java': JAVA,
      'src/table/Source.java': [
        'package table;',
        '',
        'public interface Source {',
        '    int size();',
        '',
        '    default boolean isEmpty() {',
        '        return size() == 0;',
        '    }',
        '}',
        '',
      ].join('\n'),
      'src/table/Store.java': [
        'package table;',
        '',
        'public class Store {',
        '    static final float DEFAULT_LOAD_FACTOR = 0.75f;',
        '',
        ...Array.from({ length: 60 }, (_, i) => [
          `    int step${i}(int x) {`,
          `        return x + ${i} * 31 - (x >> 3) + Integer.rotateLeft(x, ${i % 7});`,
          '    }',
        ]).flat(),
        '',
        '    /**',
        '     * Constructs an empty store with the default load factor: the load factor',
        '     * decides when it grows, and a load factor above one trades space for time.',
        '     */',
        '    Store(float loadFactor) {',
        '        this.factor = loadFactor;',
        '    }',
        '}',
        '',
      ].join('\n'),
      'src/table/Units.java': 'package table;\n\npublic enum Units {\n    DAYS,\n    HOURS;\n}\n',
      'src/app/Clock.java': [
        'package app;',
        '',
        'import static table.Units.DAYS;',
        '',
        'class Clock {',
        '    Object unit() {',
        '        return DAYS;',
        '    }',
        '}',
        '',
      ].join('\n'),
      'src/table/Cell.java':
        'package table;\n\nclass Cell {\n    volatile int value;\n    transient Object cache;\n}\n',
    });
  });

  it("lists a method's calls, not a field's reads of its name", async () => {
    expect(rows((await refsCommand(['Table::hash'], java.at())).stdout).slice(1)).toEqual([
      'src/table/Table.java',
      '1 11 call in Table::put: if (first.hash == hash(key) && first.hash > LIMIT) {',
      '2 6 declaration in Table: static final int hash(Object key) {',
      'coverage: 2 sites in 1 file (2 resolved, 0 candidate, 0 unresolved)',
    ]);
  });

  it('resolves a bare constant inside its class, and drops a local of its name', async () => {
    expect(rows((await refsCommand(['Table::LIMIT'], java.at())).stdout).slice(1)).toEqual([
      'src/table/Table.java',
      '1 11 reference in Table::put: if (first.hash == hash(key) && first.hash > LIMIT) {',
      '2 4 declaration in Table: static final int LIMIT = 8;',
      'coverage: 2 sites in 1 file (2 resolved, 0 candidate, 0 unresolved)',
    ]);
  });

  it('search Owner.member and Owner#member show the member first', async () => {
    for (const query of ['Table.grow', 'Table#grow']) {
      const first = rows((await searchCommand([query], java.at())).stdout)[0];
      expect(first).toMatch(/ {2}src\/table\/Table\.java:17-20 {2}Table::grow$/);
    }
  });

  it('map names Java default methods and volatile and transient fields', async () => {
    expect(rows((await mapCommand(['src/table/Source.java'], java.at())).stdout)).toContainEqual(
      expect.stringMatching(/ 6-8 default method isEmpty$/),
    );
    const cell = rows((await mapCommand(['src/table/Cell.java'], java.at())).stdout);
    expect(cell).toContainEqual(expect.stringMatching(/ 4 volatile field (Cell::)?value$/));
    expect(cell).toContainEqual(expect.stringMatching(/ 5 transient field (Cell::)?cache$/));
  });

  it("a plain-words hit spans the definition whose name spells the query, not the file's best region", async () => {
    const hit = rows((await searchCommand(['Store', 'default', 'load', 'factor'], java.at())).stdout)[0];
    expect(hit).toMatch(/ {2}src\/table\/Store\.java:4 {2}Store::DEFAULT_LOAD_FACTOR$/);
  });

  it('resolves a name a file imports statically from the class', async () => {
    expect(rows((await refsCommand(['Units::DAYS'], java.at())).stdout).slice(1)).toEqual([
      'src/app/Clock.java',
      '1 7 reference in Clock::unit: return DAYS;',
      '2 3 import: import static table.Units.DAYS;',
      'src/table/Units.java',
      '3 4 declaration in Units: DAYS,',
      'coverage: 3 sites in 2 files (3 resolved, 0 candidate, 0 unresolved)',
    ]);
  });
});

// A Rust trial on hyper 0.14: `refs Config::idle_timeout` dropped the struct literal that sets
// its default, `refs Http1Transaction::should_read_first` every `T::should_read_first()`
// (said 1 site, complete), and `refs Buffered::parse` listed 26 `"…".parse()` calls on literals.
const HYPER = {
  'src/pool.rs': [
    'pub struct Config {',
    '    pub idle_timeout: Option<u64>,',
    '    pub max_idle: usize,',
    '}',
    'pub struct Other { pub idle_timeout: u8 }',
    'pub fn defaults() -> Config {',
    '    let _o = Other { idle_timeout: 1 };',
    '    Config {',
    '        idle_timeout: Some(90),',
    '        max_idle: usize::MAX,',
    '    }',
    '}',
    '',
  ].join('\n'),
  'src/role.rs': [
    'pub trait Http1Transaction {',
    '    fn should_read_first() -> bool;',
    '}',
    'pub struct Conn<T> { t: T }',
    'impl<T: Http1Transaction> Conn<T> {',
    '    pub fn poll(&self) -> bool {',
    '        T::should_read_first()',
    '    }',
    '}',
    '',
  ].join('\n'),
  'src/io.rs': [
    'pub struct Buffered { n: u8 }',
    'impl Buffered {',
    '    pub fn parse(&self) -> u8 { self.n }',
    '}',
    'pub fn uri() -> u8 {',
    '    let _u: u32 = "http://hyper.rs".parse().unwrap();',
    '    Buffered { n: 1 }.parse()',
    '}',
    '',
  ].join('\n'),
  // A trait and a struct of one name (hyper's connect::Connection and conn::Connection).
  'src/connect.rs':
    'pub trait Connection {\n    fn connected(&self);\n}\npub struct Tcp;\nimpl Connection for Tcp {\n    fn connected(&self) {}\n}\n',
  'src/conn.rs': 'pub struct Connection {\n    x: u8,\n}\npub fn make() -> Connection {\n    Connection { x: 1 }\n}\n',
  'config.go': [
    'package pool',
    '',
    'type Config struct {',
    '\tIdleTimeout int',
    '}',
    '',
    'func Defaults() Config {',
    '\treturn Config{IdleTimeout: 90}',
    '}',
    '',
  ].join('\n'),
};

describe('refs A::b of Rust and Go fields and trait methods', () => {
  let hyper: IndexedRepo;
  beforeAll(async () => {
    hyper = await indexedRepo('tp-refs-hyper-', HYPER);
  });
  const sites = async (words: string[]) =>
    json(await refsCommand(words, hyper.at({ format: 'json' }))).hits.map(
      (h: { path: string; start_line: number; resolution: string }) => `${h.path}:${h.start_line} ${h.resolution}`,
    );

  it("a struct literal's key is the field of the type it names", async () => {
    const idle = await sites(['Config::idle_timeout']);
    expect(idle).toContain('src/pool.rs:9 resolved');
    expect(idle).not.toContain('src/pool.rs:7 resolved');
    expect(idle.some((s: string) => s.startsWith('src/pool.rs:7 '))).toBe(false);
    // Without an owner, each key resolves to its own type's field.
    const bare = await sites(['idle_timeout']);
    expect(bare).toEqual(expect.arrayContaining(['src/pool.rs:7 resolved', 'src/pool.rs:9 resolved']));
    expect(await sites(['Config::IdleTimeout'])).toContain('config.go:8 resolved');
  });

  it("a call through a type parameter is a candidate of the trait's method", async () => {
    expect(await sites(['Http1Transaction::should_read_first'])).toContain('src/role.rs:7 candidate');
  });

  it('refs NAME kind:K keeps the sites of that kind and counts the others', async () => {
    const page = json(await refsCommand(['Connection', 'kind:trait'], hyper.at({ format: 'json' })));
    const paths = page.hits.map((h: { path: string }) => h.path);
    expect(paths).toContain('src/connect.rs');
    // Before: the struct's declaration and uses too, the page headed by the struct.
    expect(paths).not.toContain('src/conn.rs');
    expect(page.coverage.other_kind_sites).toBeGreaterThanOrEqual(3);
    const lines = (await refsCommand(['Connection', 'kind:trait'], hyper.at())).stdout;
    expect(lines.split('\n')[0]).toMatch(/^refs Connection kind:trait → src\/connect\.rs:1 /);
    expect(lines).toMatch(/; \d+ sites of other kinds' definitions left out \(kind:trait\)\n$/);
    const all = json(await refsCommand(['Connection'], hyper.at({ format: 'json' })));
    expect(all.hits.map((h: { path: string }) => h.path)).toContain('src/conn.rs');
  });

  it("map names the trait a Rust method implements, and leaves an inherent method's row alone", async () => {
    const out = (await mapCommand(['src/connect.rs'], hyper.at())).stdout.split('\n');
    // Before: `6 method connected` for both, as if Tcp's were inherent.
    expect(out).toContain('4 6 impl Connection method Tcp::connected');
    expect(out).toContain('2 2 method connected');
  });

  it('a method called on a string literal is no site of another type', async () => {
    const parse = await sites(['Buffered::parse']);
    expect(parse.some((s: string) => s.startsWith('src/io.rs:6 '))).toBe(false);
    expect(parse.some((s: string) => s.startsWith('src/io.rs:7 '))).toBe(true);
  });
});

describe('search Owner.member in Python', () => {
  // FastAPI (a Python trial): `search APIRouter.get` printed `routing.py:478-493 APIRouter::get`
  // over the class head (the class's name holds two of the words), and `search FastAPI.openapi`
  // ranked files importing `fastapi.openapi.models` above the method.
  let repo: IndexedRepo;
  beforeAll(async () => {
    const filler = Array.from({ length: 90 }, (_, i) => `    def helper_${i}(self):\n        return ${i}\n`).join('');
    repo = await indexedRepo('tp-py-owned-', {
      'fastapi/routing.py': `class APIRouter:\n    def __init__(self, prefix=''):\n        self.prefix = prefix\n\n${filler}\n    def get(self, path):\n        return self.add(path)\n`,
      'fastapi/applications.py':
        'class FastAPI:\n    def openapi(self):\n        return {}\n\n    def setup(self):\n        async def openapi(req):\n            return self.openapi()\n        return openapi\n',
      'fastapi/security/api_key.py': 'from fastapi.openapi.models import APIKey\n\nKEY = APIKey()\n',
      'fastapi/security/oauth2.py': 'from fastapi.openapi.models import OAuth2\n\nFLOW = OAuth2()\n',
      'fastapi/models.py': 'class Dependant:\n    path_params = []\n',
      'starlette/requests.py': 'class HTTPConnection:\n    def path_params(self):\n        return {}\n',
      'fastapi/utils.py':
        'def solve(dependant, request):\n    a = dependant.path_params\n    b = request.path_params\n    return a, b\n',
      'fastapi/requests.py':
        'from starlette.requests import Request as Request\nfrom starlette.requests import HTTPConnection as HTTPConnection\n',
    });
  });

  it('a hit on the member spans the member, not its class', async () => {
    const hit = json(await searchCommand(['APIRouter.get'], repo.at({ format: 'json' }))).hits[0];
    expect(hit).toMatchObject({ path: 'fastapi/routing.py', name: 'APIRouter::get' });
    expect(hit.start_line).toBeGreaterThan(90);
  });

  it("refs A::b reads self inside a function nested in A's method, and no module path segment", async () => {
    const sites = (await refsSites(repo, ['FastAPI::openapi'])).map(
      (x) => `${x.path}:${x.start_line} ${x.role} ${x.resolution}`,
    );
    // Before: line 7 dropped, and the two `from fastapi.openapi.models import …` lines listed.
    expect(sites).toContain('fastapi/applications.py:7 call resolved');
    expect(sites.some((x) => x.startsWith('fastapi/security/'))).toBe(false);
  });

  it("a receiver named like another type that defines the member is that type's", async () => {
    const sites = (await refsSites(repo, ['HTTPConnection::path_params'])).map(
      (x) => `${x.path}:${x.start_line} ${x.resolution}`,
    );
    // Before: `dependant.path_params` (Dependant's field) was a candidate too.
    expect(sites).toContain('fastapi/utils.py:3 candidate');
    expect(sites).not.toContain('fastapi/utils.py:2 candidate');
  });

  it('map of a module made of imports counts them instead of saying 0 items alone', async () => {
    const out = (await mapCommand(['fastapi/requests.py'], repo.at())).stdout.trimEnd().split('\n');
    expect(out.at(-1)).toBe('coverage: 0 items; 2 imports not outlined (show path:fastapi/requests.py reads them)');
    // A file of more items than imports says nothing of them.
    expect((await mapCommand(['fastapi/routing.py'], repo.at())).stdout).not.toContain('imports not outlined');
  });

  it("the owner's member stands before files spelling the dotted text", async () => {
    const hits = json(await searchCommand(['FastAPI.openapi'], repo.at({ format: 'json' }))).hits;
    expect(hits[0]).toMatchObject({ path: 'fastapi/applications.py', name: 'FastAPI::openapi' });
  });
});
