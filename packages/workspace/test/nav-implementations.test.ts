// ctx of an interface or trait lists the types implementing it (navigation/src/implementations.ts):
// declared by a clause in Java, C#, TypeScript, PHP and Rust, structurally in Go
// (nav-go.test.ts). Real repositories, real tree-sitter parses.
import { ctxCommand, searchCommand, showCommand } from '../src';
import { ctxLinesOf, ctxRows, indexedRepo, type IndexedRepo } from './ws-helpers';

const FILES = {
  'java/src/Shape.java': 'package geo;\n\npublic interface Shape {\n  double area();\n}\n',
  'java/src/Circle.java':
    'package geo;\n\npublic class Circle extends Base implements Comparable<Circle>, Shape {\n  public double area() { return 1; }\n}\n',
  'java/src/Square.java':
    'package geo;\n\npublic final class Square implements geo.Shape {\n  public double area() { return 2; }\n}\n',
  // Uses Shape without implementing it, and an interface extending it.
  'java/src/Canvas.java': 'package geo;\n\npublic class Canvas {\n  Shape last;\n}\n',
  'java/src/Solid.java': 'package geo;\n\npublic interface Solid extends Shape {\n  double volume();\n}\n',
  // Implements Shape through Solid (the JDK's LinkedBlockingDeque through BlockingDeque).
  'java/src/Cube.java':
    'package geo;\n\npublic class Cube implements Solid {\n  public double area() { return 6; }\n  public double volume() { return 1; }\n}\n',
  // Two nested interfaces named Builder (the JDK's Stream.Builder and Node.Builder).
  'java/src/Stream.java':
    'package geo;\n\npublic interface Stream<T> {\n  interface Builder<T> {\n    void add(T t);\n  }\n}\n',
  'java/src/Node.java': 'package geo;\n\ninterface Node<T> {\n  interface Builder<T> {\n    void begin();\n  }\n}\n',
  'java/src/Streams.java': [
    'package geo;',
    '',
    'final class Streams {',
    '  static final class StreamBuilderImpl<T> implements Stream.Builder<T> {',
    '    public void add(T t) {}',
    '  }',
    '  static final class FixedNodeBuilder<T> implements Node.Builder<T> {',
    '    public void begin() {}',
    '  }',
    '}',
    '',
  ].join('\n'),
  // Two inner classes Itr, each with remove (the JDK's AbstractList.Itr and ArrayList.Itr).
  'java/src/AbstractSeq.java':
    'package geo;\n\npublic abstract class AbstractSeq {\n  private class Itr {\n    public void remove() {}\n  }\n}\n',
  'java/src/Seq.java':
    'package geo;\n\npublic class Seq extends AbstractSeq {\n  private class Itr {\n    public void remove() { seqRemove(); }\n  }\n}\n',
  'cs/Store.cs':
    'namespace Shop;\n\npublic interface IStore { int Count(); }\n\npublic class MemoryStore : Base, IStore { public int Count() => 0; }\n\npublic class Cart { IStore store; }\n',
  'ts/src/sink.ts': 'export interface Sink {\n  write(s: string): void;\n}\n',
  'ts/src/console.ts':
    "import { Sink } from './sink';\n\nexport class ConsoleSink implements Sink {\n  write(s: string): void {}\n}\n\nexport class Pipe {\n  constructor(private sink: Sink) {}\n}\n",
  'php/src/Cache.php': '<?php\nnamespace App;\n\ninterface Cache\n{\n    public function get($k);\n}\n',
  'php/src/ArrayCache.php':
    '<?php\nnamespace App;\n\nclass ArrayCache extends Base implements \\App\\Cache, \\Countable\n{\n    public function get($k) { return null; }\n}\n',
  // Doctrine DBAL's drivers: the interface imported under an alias, and a namesake class
  // implementing it (a PHP trial found 7 of 9 implementations missing).
  'php/src/Driver/Result.php': '<?php\nnamespace App\\Driver;\n\ninterface Result\n{\n}\n',
  'php/src/Driver/Pdo/Result.php':
    '<?php\nnamespace App\\Driver\\Pdo;\n\nuse App\\Driver\\Result as ResultInterface;\n\nfinal class Result implements ResultInterface\n{\n}\n',
  'rs/src/lib.rs': [
    'pub trait Render {',
    '    fn render(&self) -> String;',
    '}',
    '',
    'pub struct Page;',
    'pub struct Wrapper<T>(T);',
    '',
    'impl Render for Page {',
    '    fn render(&self) -> String { String::new() }',
    '}',
    '',
    'impl<T: Render> crate::Render for Wrapper<T> {',
    '    fn render(&self) -> String { self.0.render() }',
    '}',
    '',
  ].join('\n'),
};

let repo: IndexedRepo;
beforeAll(async () => {
  repo = await indexedRepo('tp-nav-impls-', FILES);
});

/** The implementation rows of `ctx` of the definition `sym:NAME file:FILE` lands on. */
async function implementationsOf(name: string, file: string): Promise<string[]> {
  return ctxRows(await ctxLinesOf(repo, [`sym:${name}`, `file:${file}`]), 'implementation');
}

describe('ctx lists the types implementing an interface or trait', () => {
  it('Java: implements clauses, qualified or among others, and through an extending interface; not a field of the type nor the extending interface', async () => {
    expect(await implementationsOf('Shape', 'java/')).toEqual([
      'java/src/Circle.java:3 class Circle',
      'java/src/Cube.java:3 class Cube',
      'java/src/Square.java:3 class Square',
    ]);
  });

  it('says when implementations past -n or the budget were left out, and which refs lists them', async () => {
    const page = (await searchCommand(['sym:Shape', 'file:java/'], repo.at({ format: 'lines' }))).stdout;
    const handle = page.split('\n')[0].split(/ {2}/)[0];
    const cut = (await ctxCommand(handle, repo.at({ format: 'lines', limit: 1 }))).stdout.split('\n');
    expect(ctxRows(cut, 'implementation')).toHaveLength(1);
    expect(cut).toContain('implementations: more than listed (refs Shape lists every use)');
    const all = (await ctxCommand(handle, repo.at({ format: 'lines' }))).stdout;
    expect(all).not.toContain('implementations: more than listed');
  });

  it("Java: a nested interface's qualifier names its owner (Stream.Builder is not Node.Builder)", async () => {
    expect(await implementationsOf('Stream::Builder', 'java/src/Stream.java')).toEqual([
      'java/src/Streams.java:4 class Streams::StreamBuilderImpl',
    ]);
    expect(await implementationsOf('Node::Builder', 'java/src/Node.java')).toEqual([
      'java/src/Streams.java:7 class Streams::FixedNodeBuilder',
    ]);
  });

  it("C#: the base list after ':'", async () => {
    expect(await implementationsOf('IStore', 'cs/')).toEqual(['cs/Store.cs:5 class MemoryStore']);
  });

  it('TypeScript and PHP: implements, a namespaced name by its last segment', async () => {
    expect(await implementationsOf('Sink', 'ts/')).toEqual(['ts/src/console.ts:3 class ConsoleSink']);
    expect(await implementationsOf('Cache', 'php/')).toEqual(['php/src/ArrayCache.php:4 class ArrayCache']);
  });

  it('PHP: implements through an import alias', async () => {
    expect(await implementationsOf('Result', 'php/src/Driver/Result.php')).toEqual([
      'php/src/Driver/Pdo/Result.php:6 class Result',
    ]);
  });

  it('Rust: impl Trait for Type, generic and path-qualified', async () => {
    expect(await implementationsOf('Render', 'rs/')).toEqual([
      'rs/src/lib.rs:5 struct Page',
      'rs/src/lib.rs:6 struct Wrapper',
    ]);
  });
});

describe('a name qualified twice', () => {
  it('show sym:Outer::Inner::member is the member of the Inner inside Outer', async () => {
    for (const [outer, file] of [
      ['Seq', 'java/src/Seq.java'],
      ['AbstractSeq', 'java/src/AbstractSeq.java'],
    ]) {
      const shown = (await showCommand(`sym:${outer}::Itr::remove`, repo.at({ budget: 200 }))).stdout;
      expect(shown.split('\n')[0]).toMatch(new RegExp(`^\\w+:1  ${file}:5  Itr::remove$`));
    }
  });
});

describe("ctx of a method lists its overrides and the base's method it overrides", () => {
  // Doctrine DBAL (a PHP trial): which platforms override AbstractPlatform::getLocateExpression?
  // ctx listed its container, a callee and ten siblings, none of the six overrides.
  let platforms: IndexedRepo;
  beforeAll(async () => {
    const php = (body: string) => `<?php\nnamespace App\\Platforms;\n\n${body}\n`;
    platforms = await indexedRepo('tp-nav-overrides-', {
      'src/AbstractPlatform.php': php(
        'abstract class AbstractPlatform\n{\n    public function getLocateExpression($s) { return null; }\n}',
      ),
      'src/SqlitePlatform.php': php(
        'class SqlitePlatform extends AbstractPlatform\n{\n    public function getLocateExpression($s) { return 1; }\n}',
      ),
      'src/AbstractMySQLPlatform.php': php('abstract class AbstractMySQLPlatform extends AbstractPlatform\n{\n}'),
      'src/MySQL80Platform.php': php(
        'class MySQL80Platform extends AbstractMySQLPlatform\n{\n    public function getLocateExpression($s) { return 2; }\n}',
      ),
      // The same name in a class outside the hierarchy: no override.
      'src/Other.php': php('class Other\n{\n    public function getLocateExpression($s) { return 3; }\n}'),
      // C++: declared in the class, defined in a source file (googletest's listeners).
      'cpp/listener.h':
        'class Listener {\n public:\n  virtual void OnStart() = 0;\n};\nclass Printer : public Listener {\n public:\n  void OnStart() override;\n};\n',
      'cpp/printer.cc': '#include "listener.h"\nvoid Printer::OnStart() {}\n',
      // Java (the JDK's java.time): a default method of an extending interface overrides, and a
      // private or static overload of the name, or one of another arity, does not.
      'java/Adjuster.java': 'public interface Adjuster {\n  Object adjustInto(Object t);\n}\n',
      'java/ChronoDate.java':
        'public interface ChronoDate extends Adjuster {\n  default Object adjustInto(Object t) { return t; }\n}\n',
      'java/Instant.java': [
        'public final class Instant implements Adjuster {',
        '  public Object adjustInto(Object t) { return this; }',
        '  private Object adjustInto(long a, long b) { return null; }',
        '  static Object adjustInto(String s) { return null; }',
        '}',
        '',
      ].join('\n'),
    });
  });
  const rows = async (name: string, label: string) => ctxRows(await ctxLinesOf(platforms, [`sym:${name}`]), label);

  it('down the hierarchy, through a class that does not override it', async () => {
    expect(await rows('AbstractPlatform::getLocateExpression', 'override')).toEqual([
      'src/SqlitePlatform.php:6 method SqlitePlatform::getLocateExpression',
      'src/MySQL80Platform.php:6 method MySQL80Platform::getLocateExpression',
    ]);
  });

  it("C++: the source file's body of a method its class only declares", async () => {
    expect(await rows('Listener::OnStart', 'override')).toEqual(['cpp/printer.cc:2 method Printer::OnStart']);
  });

  it('Java: through an extending interface, of the same arity, neither private nor static', async () => {
    expect(await rows('Adjuster::adjustInto', 'override')).toEqual([
      'java/Instant.java:2 method Instant::adjustInto',
      'java/ChronoDate.java:2 method ChronoDate::adjustInto',
    ]);
  });

  it('up to the nearest base that declares it', async () => {
    expect(await rows('MySQL80Platform::getLocateExpression', 'overrides')).toEqual([
      'src/AbstractPlatform.php:6 method AbstractPlatform::getLocateExpression',
    ]);
    expect(await rows('Other::getLocateExpression', 'overrides')).toEqual([]);
  });
});
