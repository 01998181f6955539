// `refs A::b` in Java and C# reads a receiver variable's declared type (navigation
// declared-types.ts): a JDK trial's `refs ConcurrentHashMap::size` listed 178 `x.size()`
// calls on Vectors, Lists and Maps as candidates and dropped `map.size()` on a
// ConcurrentHashMap field as a read of `Map`'s. Real repository, real tree-sitter parses.
import { ctxLinesOf, ctxRows, indexedRepo, refsSites, type IndexedRepo } from './ws-helpers';

const FILES = {
  'java/Sized.java': 'public interface Sized {\n  int size();\n}\n',
  'java/Pool.java': 'public class Pool implements Sized {\n  public int size() { return 0; }\n}\n',
  'java/Other.java': 'public class Other {\n  public int size() { return 1; }\n}\n',
  'java/PoolChild.java': 'public class PoolChild extends Pool {\n  int twice() { return size() * 2; }\n}\n',
  'java/OtherChild.java': 'public class OtherChild extends Other {\n  int twice() { return size() * 2; }\n}\n',
  'java/Uses.java': [
    'import java.util.List;',
    '',
    'public class Uses {',
    '  // the pool of this use',
    '  private final Pool pool = new Pool();',
    '  int a(Other other) {',
    '    return other.size();',
    '  }',
    '  int b() {',
    '    return pool.size();',
    '  }',
    '  int c(List<String> xs) {',
    '    return xs.size();',
    '  }',
    '  int d() {',
    '    var p = new Pool();',
    '    return p.size();',
    '  }',
    '  int e(Sized s) {',
    '    return s.size();',
    '  }',
    '  int f(PoolChild child) {',
    '    return child.size();',
    '  }',
    '  int g(java.util.function.Supplier<Pool> get) {',
    '    return get.get().size();',
    '  }',
    '}',
    '',
  ].join('\n'),
  // Two overloads of one name (the JDK's Temporal::plus): a call passing two arguments is the other's.
  'java/Clock.java': [
    'public class Clock {',
    '  public Clock plus(Object amount) { return this; }',
    '  public Clock plus(long n, Object unit) { return this; }',
    '}',
    '',
  ].join('\n'),
  'java/UsesClock.java': [
    'public class UsesClock {',
    '  Clock a(Clock c) {',
    '    return c.plus(5, "s");',
    '  }',
    '  Clock b(Clock c) {',
    '    return c.plus("x, y");',
    '  }',
    '}',
    '',
  ].join('\n'),
  'cs/Cart.cs': [
    'public class Store { public int Size() { return 0; } }',
    'public class Shelf { public int Size() { return 1; } }',
    'public class Cart {',
    '  private Store store;',
    '  private Shelf shelf;',
    '  int N() {',
    '    return store.Size()',
    '      + shelf.Size();',
    '  }',
    '}',
    '',
  ].join('\n'),
};

let repo: IndexedRepo;
beforeAll(async () => {
  repo = await indexedRepo('tp-nav-declared-', FILES);
});

async function calls(name: string): Promise<string[]> {
  return (await refsSites(repo, [name]))
    .filter((s) => s.role === 'call')
    .map((s) => `${s.path}:${s.start_line} ${s.resolution}`)
    .sort();
}

describe("refs A::b reads a Java or C# receiver's declared type", () => {
  it('a field, a parameter, var and a subclass are the type; another type, an interface and an outside type are not', async () => {
    expect(await calls('Pool::size')).toEqual([
      // Inside a subclass that does not define size, a bare call is Pool's.
      'java/PoolChild.java:2 resolved',
      'java/Uses.java:10 resolved',
      'java/Uses.java:17 resolved',
      'java/Uses.java:23 resolved',
      // A receiver that is no variable: nothing tells its type.
      'java/Uses.java:26 candidate',
    ]);
  });

  it("ctx: a callee through a declared receiver is its type's method, or none of the index's", async () => {
    const callees = async (name: string) => {
      const lines = await ctxLinesOf(repo, [`sym:${name}`]);
      return [...ctxRows(lines, 'callee'), ...lines.filter((l) => l.startsWith('unresolved callees:'))];
    };
    expect(await callees('Uses::a')).toEqual(['java/Other.java:2 method Other::size']);
    expect(await callees('Uses::b')).toEqual(['java/Pool.java:2 method Pool::size']);
    expect(await callees('Uses::c')).toEqual(['unresolved callees: size']);
  });

  it('ctx of one overload lists the calls passing its number of arguments', async () => {
    const lines = await ctxLinesOf(repo, ['sym:Clock::plus', 'file:java/Clock.java']);
    expect(ctxRows(lines, 'symbol')).toEqual(['java/Clock.java:2 method Clock::plus']);
    expect(ctxRows(lines, 'caller')).toEqual(['java/UsesClock.java:6 in UsesClock::b']);
  });

  it('C#: a field of each type', async () => {
    expect(await calls('Store::Size')).toEqual(['cs/Cart.cs:7 resolved']);
    expect(await calls('Shelf::Size')).toEqual(['cs/Cart.cs:8 resolved']);
  });
});
