// TypeScript the grammar (tree-sitter-typescript 0.23.2) rejects but real code (effect,
// fp-ts style overloads) uses: the file must parse `ok` with its definitions at exact spans.
import { extractFile, type Extraction } from '../src';

function extract(src: string): { x: Extraction; bytes: Buffer } {
  const bytes = Buffer.from(src, 'utf8');
  return { x: extractFile('typescript', bytes), bytes };
}

function defsAt(x: Extraction): string[] {
  return x.definitions.map((d) => `${d.container ? d.container + '::' : ''}${d.name}:${d.kind}@${d.startLine}`);
}

/** Definitions point at their names' bytes in the original source (the rewrite kept every offset). */
function expectExactNames(bytes: Buffer, x: Extraction): void {
  for (const d of x.definitions) expect(bytes.subarray(d.nameStart, d.nameEnd).toString('utf8')).toBe(d.name);
}

const VARIANCE = `export interface Chunk<out A> extends Iterable<A> {
  readonly length: number
}
export interface Brand<in out K extends string | symbol> {
  readonly brand: K
}
export interface Reducer<in C, in E, in out Z> {
  emptyCase(context: C): Z
}
export const out = 1
export interface Obj<
  /** @ts-ignore Cast variance */
  out Shape extends object = object,
  // and a line comment
  out Config = unknown,
> {
  readonly shape: Shape
}
`;

// effect's \`dual\` overloads: a call signature follows a member ending in a type, no \`;\`.
const OVERLOADS = `import type { LazyArg } from "./Function.js"

export const match: {
  /**
   * Data-last.
   */
  <A, B = A>(
    options: { readonly onFalse: LazyArg<A>; readonly onTrue: LazyArg<B> }
  ): (value: boolean) => A | B
  /**
   * Data-first.
   */
  <A, B>(value: boolean, options: { readonly onFalse: LazyArg<A> }): A | B
} = dual(2, <A, B>(value: boolean, options: Options<A, B>): A | B => value ? options.onTrue() : options.onFalse())

export const get: {
  (index: number): <A>(self: Chunk<A>) => Option<A> // data-last
  <A>(self: Chunk<A>, index: number): Option<A>
} = dual(2, (self, index) => at(self, index))

export function after(): number {
  return 1
}
`;

const TEMPLATE_TYPE =
  'type MissingSelf = `Missing \\`Self\\` generic - use \\`class Self extends Service<Self>()\\``\n' +
  'export class Service {\n  run(): MissingSelf { return null! }\n}\n';

describe('TypeScript syntax the grammar lacks', () => {
  test('variance annotations on type parameters parse, with every definition', () => {
    const { x, bytes } = extract(VARIANCE);
    expect(x.parse).toBe('ok');
    expect(defsAt(x)).toEqual([
      'Chunk:interface@1',
      'Chunk::length:property@2',
      'Brand:interface@4',
      'Brand::brand:property@5',
      'Reducer:interface@7',
      'Reducer::emptyCase:method@8',
      'out:constant@10',
      'Obj:interface@11',
      'Obj::shape:property@17',
    ]);
    expectExactNames(bytes, x);
  });

  test('call signatures on lines after a type, across doc and line comments', () => {
    const { x, bytes } = extract(OVERLOADS);
    expect(x.parse).toBe('ok');
    expect(defsAt(x)).toEqual([
      'match:constant@3',
      'onFalse:property@8',
      'onTrue:property@8',
      'onFalse:property@13',
      'get:constant@16',
      'after:function@21',
    ]);
    expect(x.imports.map((i) => `${i.spelled} ${i.name}`)).toEqual(['./Function.js LazyArg']);
    expectExactNames(bytes, x);
  });

  test('escapes inside a template literal type', () => {
    const { x } = extract(TEMPLATE_TYPE);
    expect(x.parse).toBe('ok');
    expect(defsAt(x)).toEqual(['MissingSelf:type@1', 'Service:class@2', 'Service::run:method@3']);
  });

  test('regions keep the original text, not the rewrite', () => {
    const { x } = extract(OVERLOADS);
    expect(x.regions.map((r) => r.body).join('')).toBe(OVERLOADS);
  });

  test('lines that continue an expression are left alone (in a file the repair rewrites)', () => {
    const src = `export interface V<out A> { readonly a: A }
export const f = pipe(
  value,
  (x) => x + 1
)
export type T = A extends
  (...args: infer P) => infer R ? [P, R] : never
export const g = () =>
  <A>(a: A) => a
`;
    const { x } = extract(src);
    expect(x.parse).toBe('ok');
    expect(defsAt(x)).toEqual(['V:interface@1', 'V::a:property@1', 'f:constant@2', 'T:type@6', 'g:function@8']);
  });

  test('an import type with type arguments, and the values a declaration file declares', () => {
    // rxjs' dist/types (an agent trial): 3 files partial on `import("../types").X<T>`, and
    // 39 `export declare const` values missing from map.
    const src = [
      'export declare function schedulePromise<T>(input: PromiseLike<T>): import("../Observable").Observable<T>;',
      'export declare const asyncScheduler: AsyncScheduler;',
      "export declare let config: import('./config').GlobalConfig<string> | undefined;",
      'const later = import("./lazy").then((m) => m);',
      '',
    ].join('\n');
    const { x, bytes } = extract(src);
    expect(x.parse).toBe('ok');
    expect(defsAt(x)).toEqual([
      'schedulePromise:prototype@1',
      'asyncScheduler:constant@2',
      'config:variable@3',
      'later:constant@4',
    ]);
    expectExactNames(bytes, x);
  });

  test('a file with a real syntax error stays partial', () => {
    const { x } = extract('export interface Chunk<out A> {\n  readonly length: number\n}\nexport function broken( {\n');
    expect(x.parse).toBe('partial');
    expect(defsAt(x)).toContain('Chunk:interface@1');
  });
});
