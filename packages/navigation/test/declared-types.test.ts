// The declared type of a Java or C# receiver variable, read from its declaration's text.
import { declaredTypeIn, receiverVariable } from '../src/declared-types';

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
