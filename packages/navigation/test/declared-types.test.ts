// The declared type of a Java or C# receiver variable, read from its declaration's text, and a
// method's parameter count, read from its head.
import { declaredTypeIn, receiverVariable } from '../src/declared-types';
import { argumentCount, parameterCount } from '../src/signatures';

describe('declaredTypeIn', () => {
  it('reads the type before the name, generic, qualified or an array, the last declaration winning', () => {
    expect(declaredTypeIn('  private final ConcurrentHashMap<K, V> map;', 'map')).toBe('ConcurrentHashMap');
    expect(declaredTypeIn('int f(java.util.Map<? extends K, ? extends V> m) {', 'm')).toBe('Map');
    expect(declaredTypeIn('Entry<K,V>[] tab = table;', 'tab')).toBe('Entry');
    expect(declaredTypeIn('for (E e : this)', 'e')).toBe('E');
    expect(declaredTypeIn('Vector<String> v = a;\n  List<String> v = b;', 'v')).toBe('List');
    expect(declaredTypeIn('string? name = null;', 'name')).toBeUndefined();
    expect(declaredTypeIn('Store? store = null;', 'store')).toBe('Store');
  });

  it('reads var from its initializer, and nothing from a use, a primitive or another name', () => {
    expect(declaredTypeIn('var p = new Pool();', 'p')).toBe('Pool');
    expect(declaredTypeIn('var p = make();', 'p')).toBeUndefined();
    expect(declaredTypeIn('return map.size();', 'map')).toBeUndefined();
    expect(declaredTypeIn('int count = 0;', 'count')).toBeUndefined();
    expect(declaredTypeIn('Pool pools;', 'pool')).toBeUndefined();
  });
});

describe('receiverVariable', () => {
  it('is the lowercase variable before the member, this. marking a field', () => {
    expect(receiverVariable('return map.')).toEqual({ name: 'map', field: false });
    expect(receiverVariable('this.map.')).toEqual({ name: 'map', field: true });
    expect(receiverVariable('return a.b.')).toBeUndefined();
    expect(receiverVariable('get().')).toBeUndefined();
    expect(receiverVariable('Pool.')).toBeUndefined();
    expect(receiverVariable('super.')).toBeUndefined();
  });
});

describe('parameterCount', () => {
  it('counts top-level parameters, and none when defaults or a variable list make it flexible', () => {
    expect(parameterCount('(long a, long b) {')).toBe(2);
    expect(parameterCount('() {')).toBe(0);
    expect(parameterCount('<T> (Map<K, V> m, java.util.List<Map<K,V>> xs)')).toBe(2);
    expect(parameterCount('(const char *s, int n)')).toBe(2);
    expect(parameterCount('(self, *args)')).toBeUndefined();
    expect(parameterCount('(int x = 0)')).toBeUndefined();
    expect(parameterCount('(String... xs)')).toBeUndefined();
    expect(parameterCount(' = 3;')).toBeUndefined();
  });
});

describe('argumentCount', () => {
  it('counts top-level arguments, literals skipped, and none across a <', () => {
    expect(argumentCount('(seconds, SECONDS);')).toBe(2);
    expect(argumentCount('(amount)')).toBe(1);
    expect(argumentCount('()')).toBe(0);
    expect(argumentCount('(f(a, b), "x, y", \',\')')).toBe(3);
    expect(argumentCount('(a < b, c)')).toBeUndefined();
    expect(argumentCount('(new HashMap<K, V>())')).toBeUndefined();
    expect(argumentCount('(a,')).toBeUndefined();
    expect(argumentCount('::plus')).toBeUndefined();
  });
});
