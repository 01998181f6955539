// Go interfaces are satisfied structurally: no `implements` names the types that satisfy
// one, so neither grep nor the import graph finds them. `ctx` of an interface lists them
// from the index's methods, by name (docs/navigation.md, "Implementations").
import type { IndexedDefinition, IndexedFile, IndexReader } from '@trufflepig/index';
import { goImportDir, goPackageDir, goPackageImport } from './go-packages';

/** Kinds a Go type declaration has in the index (`type_spec`): a struct, an interface, any other type. */
const GO_TYPE_KINDS: ReadonlySet<string> = new Set(['struct', 'type']);

/**
 * The named Go types (not interfaces) whose methods, across their package (directory),
 * include every method `iface` declares, compared by name: signatures are not compared,
 * and methods of an interface `iface` embeds are not required, so a type listed may miss a
 * method's exact signature or an embedded interface's methods. An interface without
 * methods of its own (`any`, or one made only of embedded interfaces) lists none. In no
 * order: implementationsOf orders and bounds every language's list alike.
 */
export function goImplementations(
  reader: IndexReader,
  iface: IndexedDefinition,
  bytesOf: (d: IndexedDefinition) => Uint8Array | undefined,
): IndexedDefinition[] {
  const methods = reader
    .fileDefinitions(iface.file.path)
    .filter((d) => d.container === iface.name && d.kind === 'method');
  const names = [...new Set(methods.map((d) => d.name))];
  if (iface.file.lang !== 'go' || iface.kind !== 'interface' || names.length === 0) return [];
  const key = (dir: string, type: string) => `${dir}\0${type}`;
  let holders: Set<string> | undefined;
  for (const name of names) {
    const here = new Set<string>();
    for (const d of reader.definitions(name))
      if (d.kind === 'method' && d.file.lang === 'go' && d.container !== null)
        here.add(key(goPackageDir(d.file.path), d.container));
    holders = holders === undefined ? here : new Set([...holders].filter((k) => here.has(k)));
  }
  if (holders === undefined) return [];
  // A struct embedding the interface (`type sampler struct { Core; … }`) has all its methods
  // (zap's `sampler` and `hooked` define two of Core's four themselves), and so has one
  // embedding a type that does (etcd's `watchableStore` embeds `*store`), a few levels down.
  const embedding = (dir: string, type: string): string[] =>
    reader
      .definitions(type)
      .filter(
        (f) =>
          f.kind === 'field' &&
          f.file.lang === 'go' &&
          f.container !== null &&
          embeddedFrom(reader, f, bytesOf(f)) === dir,
      )
      .map((f) => key(goPackageDir(f.file.path), f.container!));
  // Through an interface embedding this one too (rafttest's `Storage` embeds `raft.Storage`:
  // rafttest's `Node` embeds the former and so satisfies the latter).
  const home = goPackageDir(iface.file.path);
  for (const [dir, type] of [[home, iface.name], ...embeddingInterfaces(reader, iface, home, bytesOf)])
    for (const k of embedding(dir, type)) holders.add(k);
  let level = [...holders];
  for (let depth = 0; depth < GO_EMBEDDING_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const k of level) {
      const [dir, type] = k.split('\0');
      for (const e of embedding(dir, type)) if (!holders.has(e)) next.push(e);
    }
    for (const e of next) holders.add(e);
    level = next;
  }
  const types: IndexedDefinition[] = [];
  const byName = new Map<string, IndexedDefinition[]>();
  for (const k of holders) {
    const [dir, type] = k.split('\0');
    let named = byName.get(type);
    if (named === undefined) byName.set(type, (named = reader.definitions(type)));
    // An interface declaring the same methods is no implementation: its kind is `interface`.
    const declared = named.find(
      (d) => d.file.lang === 'go' && d.container === null && goPackageDir(d.file.path) === dir,
    );
    if (declared && GO_TYPE_KINDS.has(declared.kind)) types.push(declared);
  }
  return types;
}

/**
 * The interfaces (package directory, name) whose bodies embed `iface` (`raft.Storage` on a
 * line of its own, or `Storage` in its own package), read from the files using its name.
 */
function embeddingInterfaces(
  reader: IndexReader,
  iface: IndexedDefinition,
  home: string,
  bytesOf: (d: IndexedDefinition) => Uint8Array | undefined,
): [string, string][] {
  const out: [string, string][] = [];
  const line = new RegExp(`^\\s*(?:([A-Za-z_]\\w*)\\s*\\.\\s*)?${iface.name}\\s*(?://.*)?$`, 'm');
  const files = new Set(reader.nameUses(iface.name).map((u) => u.file));
  for (const file of files) {
    if (file.lang !== 'go') continue;
    for (const d of reader.fileDefinitions(file.path)) {
      if (d.kind !== 'interface' || (d.file.id === iface.file.id && d.start === iface.start)) continue;
      const bytes = bytesOf(d);
      if (bytes === undefined) continue;
      const body = Buffer.from(bytes.subarray(d.nameEnd, d.end)).toString('utf8');
      const m = line.exec(body);
      if (!m) continue;
      if (spelledPackageDir(reader, file, m[1]) === home) out.push([goPackageDir(file.path), d.name]);
    }
  }
  return out;
}

/** Levels of structs embedding a type that satisfies an interface, read for more (goImplementations). */
const GO_EMBEDDING_DEPTH = 3;

/**
 * The package directory of the type a Go field embeds (`Core`, `*Config`, `clientv3.KV`),
 * or undefined when the field is not embedded or its package is not in the index: its
 * own package unqualified, the import's when qualified. By name alone, etcd's
 * `clientv3.Client` (embedding clientv3's `KV`) had been an implementation of mvcc's `KV`
 * (an etcd trial).
 */
function embeddedFrom(
  reader: IndexReader,
  field: IndexedDefinition,
  bytes: Uint8Array | undefined,
): string | undefined {
  if (bytes === undefined) return undefined;
  const rest = Buffer.from(bytes.subarray(field.nameEnd, field.end)).toString('utf8').trim();
  if (!(rest === '' || rest.startsWith('`') || rest.startsWith('"') || rest.startsWith('['))) return undefined;
  const before = Buffer.from(bytes.subarray(field.start, field.nameStart)).toString('utf8');
  return spelledPackageDir(reader, field.file, /([A-Za-z_]\w*)\s*\.\s*$/.exec(before)?.[1]);
}

/**
 * The package directory a type name spelled in `file` is in: the file's own unqualified,
 * the one the import binding `qualifier` names, undefined when no indexed package is.
 */
function spelledPackageDir(reader: IndexReader, file: IndexedFile, qualifier: string | undefined): string | undefined {
  if (qualifier === undefined) return goPackageDir(file.path);
  const imported = goPackageImport(reader.fileImports(file.path), `${qualifier}.`);
  return imported === undefined ? undefined : goImportDir(reader, imported.spelled, file);
}
