// Which of a file's definitions a type owns by name. A member names its owner (`container`),
// and C++ lets one file hold several types of one name: `internal::MockFunction<R(Args...)>`
// beside `testing::MockFunction`, a template and its specializations (`UniversalPrinter<T&>`).
// Each owns what its body holds; a definition outside every such body (an out-of-line
// `Foo::bar() {}`, a Rust `impl` block's method) belongs to the name.
import type { IndexedDefinition } from '@trufflepig/index';

/** The definitions of `defs` (one file's) whose container names `owner`, less those inside another type of its name and kind. */
export function ownedByName(defs: readonly IndexedDefinition[], owner: IndexedDefinition): IndexedDefinition[] {
  const namesakes = defs.filter((o) => o.name === owner.name && o.kind === owner.kind && o.start !== owner.start);
  return defs.filter((d) => d.container === owner.name && !namesakes.some((o) => d.start >= o.start && d.end <= o.end));
}
