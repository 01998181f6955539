// Go interfaces are satisfied structurally: no `implements` names the types that satisfy
// one, so neither grep nor the import graph finds them. `ctx` of an interface lists them
// from the index's methods, by name (docs/navigation.md, "Implementations").
import * as path from 'node:path';
import type { IndexedDefinition, IndexReader } from '@trufflepig/index';

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
        here.add(key(path.posix.dirname(d.file.path), d.container));
    holders = holders === undefined ? here : new Set([...holders].filter((k) => here.has(k)));
  }
  // A struct embedding the interface (`type sampler struct { Core; … }`) has all its methods
  // (zap's `sampler` and `hooked` define two of Core's four themselves).
  for (const f of reader.definitions(iface.name))
    if (f.kind === 'field' && f.file.lang === 'go' && f.container !== null && embedded(f, bytesOf(f)))
      holders?.add(key(path.posix.dirname(f.file.path), f.container));
  const types: IndexedDefinition[] = [];
  const byName = new Map<string, IndexedDefinition[]>();
  for (const k of holders ?? []) {
    const [dir, type] = k.split('\0');
    let named = byName.get(type);
    if (named === undefined) byName.set(type, (named = reader.definitions(type)));
    // An interface declaring the same methods is no implementation: its kind is `interface`.
    const declared = named.find(
      (d) => d.file.lang === 'go' && d.container === null && path.posix.dirname(d.file.path) === dir,
    );
    if (declared && GO_TYPE_KINDS.has(declared.kind)) types.push(declared);
  }
  return types;
}

/** Whether a Go field is embedded (`Core`, `*Config`, `io.Writer`): nothing but a tag follows its name. */
function embedded(field: IndexedDefinition, bytes: Uint8Array | undefined): boolean {
  if (bytes === undefined) return false;
  const rest = Buffer.from(bytes.subarray(field.nameEnd, field.end)).toString('utf8').trim();
  return rest === '' || rest.startsWith('`') || rest.startsWith('"') || rest.startsWith('[');
}
