// The identifier walk (treesitter.ts collectIdentifiers) must find exactly what query
// captures of the same node types find, on every language's fixtures and on samples of
// the languages without fixtures: errors, aliases and nesting included.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { filesUnder } from './helpers';
import type Parser from 'tree-sitter';
import { languageOf } from '../src/classify';
import { parserFor, SPECS, type TreeSitterLanguage } from '../src/extract/grammars';
import { collectIdentifiers } from '../src/extract/treesitter';

type Occurrence = { start: number; end: number; kind: string };

function byQuery(lang: TreeSitterLanguage, tree: Parser.Tree): Occurrence[] {
  const { parser } = parserFor(lang);
  const Query = (require('tree-sitter') as typeof Parser).Query;
  const source = Object.entries(SPECS[lang].identifiers)
    .map(([type, kind]) => `(${type}) @${kind}`)
    .join('\n');
  const query = new Query(parser.getLanguage(), source);
  const seen = new Set<number>();
  const out: Occurrence[] = [];
  for (const { name, node } of query.captures(tree.rootNode)) {
    if (seen.has(node.startIndex)) continue;
    seen.add(node.startIndex);
    // A symbol (`:name`) is an `id` of the name after its sigil.
    if (name === 'id.symbol') out.push({ start: node.startIndex + 1, end: node.endIndex, kind: 'id' });
    else out.push({ start: node.startIndex, end: node.endIndex, kind: name });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Names read lexically inside LanguageSpec.lexical nodes (a C macro's body): no query captures them. */
let lexicallyRead = 0;

function byWalk(lang: TreeSitterLanguage, tree: Parser.Tree, text: string): Occurrence[] {
  const ids: Parameters<typeof collectIdentifiers>[4] = [];
  collectIdentifiers(tree, text, SPECS[lang], new Map(), ids, new Map());
  for (const id of ids) expect(id.name).toBe(text.slice(id.start, id.end));
  const lexical = tree.rootNode.descendantsOfType([...(SPECS[lang].lexical?.types ?? [])]);
  const inLexical = (at: number) => lexical.some((n) => n.startIndex <= at && at < n.endIndex);
  lexicallyRead += ids.filter((id) => inLexical(id.start)).length;
  return ids
    .filter((id) => !inLexical(id.start))
    .map(({ start, end, kind }) => ({ start, end, kind }))
    .sort((a, b) => a.start - b.start);
}

function expectSame(lang: TreeSitterLanguage, text: string): number {
  const tree = parserFor(lang).parser.parse(text);
  const walked = byWalk(lang, tree, text);
  expect(walked).toEqual(byQuery(lang, tree));
  return walked.length;
}

const FIXTURES = path.join(__dirname, '..', 'fixtures');

describe('identifier walk', () => {
  it('equals the query captures on every fixture file of a tree-sitter language', () => {
    const languages = new Set<string>();
    let ids = 0;
    for (const file of filesUnder(FIXTURES)) {
      const lang = languageOf(file);
      if (lang === 'text' || lang === 'dreammaker') continue;
      ids += expectSame(lang, fs.readFileSync(file, 'utf8'));
      languages.add(lang);
    }
    expect([...languages].sort()).toEqual(['c', 'cpp', 'csharp', 'go', 'java', 'luau', 'php', 'python', 'ruby']);
    expect(ids).toBeGreaterThan(500);
    // The C fixtures' macro bodies hold names, read besides the walk's nodes.
    expect(lexicallyRead).toBeGreaterThan(0);
  });

  it.each<[TreeSitterLanguage, string]>([
    ['rust', 'struct P { x: u8 }\nfn f(p: P) -> u8 { let P { x } = p; m!(x); x }\nimpl P { fn g(&self) {} }\n'],
    ['typescript', 'class A { #n = 1; get v(): T { return this.#n } }\nconst { a, b: c } = o; f({ a });\n'],
    ['tsx', 'const C = (p: Props) => <div id={p.id}>{p.name}</div>;\n'],
    ['javascript', 'const { a, b } = require("m"); class K { #p() {} m() { return this.#p(); } }\n'],
    ['python', 'class A:\n    def f(self, x):\n        return g(x).y\n'],
    ['c', 'struct s { int a b; };\nint f(struct s *p) { return p->a + g(p) q; }\n#define M(x) ((x) + 1)\n'],
    ['cpp', 'namespace n { template <class T> struct B : A<T> { void f() { ::n::g<T>(this->x); } }; }\n'],
  ])('equals the query captures on %s, syntax errors included', (lang, text) => {
    expect(expectSame(lang, text)).toBeGreaterThan(3);
  });
});
