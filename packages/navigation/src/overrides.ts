// What `ctx` of a method lists of its class hierarchy (docs/navigation.md, `ctx`:
// "Overrides"): the methods of the same name in the classes deriving from or implementing
// its class (`overridden_by`), and the one of the nearest base class that declares it
// (`overrides`). Read through implementations.ts's subclasses, implementations and bases, so
// the languages and the certainty are theirs: a subclass that may be another class's makes
// its method a candidate.
import { codeFamilyOf, OWNER_KINDS, readIndexedBytes, type IndexedDefinition } from '@trufflepig/index';
import { definitionKey as key, implementationsOf, subclassesOf, upBases, type Subclass } from './implementations';
import { lastSegment } from './class-heads';
import { CTX_OVERRIDE_CLASSES_MAX, CTX_OVERRIDE_DEPTH } from './limits';
import { parameterCount, textAfter } from './signatures';
import type { NavTarget } from './target';

export interface Overrides {
  /** Methods of the name in derived or implementing classes, breadth first; at most `limit`. */
  readonly overriddenBy: Subclass[];
  /** Found past `limit`, or in classes past CTX_OVERRIDE_CLASSES_MAX: counted. */
  readonly more: number;
  /** The nearest base's method of the name, when a base chain declares it. */
  readonly overrides: Subclass[];
}

const NONE: Overrides = { overriddenBy: [], more: 0, overrides: [] };

/**
 * The overrides of `focus`, a method; none for anything else. A PHP trial on Doctrine DBAL
 * asked which platforms override `AbstractPlatform::getLocateExpression`: ctx listed its
 * container, a callee and ten siblings, and none of the six overrides rg found in one line.
 */
export function overridesOf(t: NavTarget, focus: IndexedDefinition, limit: number): Overrides {
  if (focus.kind !== 'method' && focus.kind !== 'prototype') return NONE;
  if (focus.container === null) return NONE;
  const owner = ownerOf(t, focus);
  if (!owner) return NONE;
  const down: Subclass[] = [];
  let more = 0;
  let capped = false;
  const seen = new Set<string>([key(owner)]);
  let level: Subclass[] = [owner];
  for (let depth = 0; depth < CTX_OVERRIDE_DEPTH && level.length > 0; depth++) {
    const next: Subclass[] = [];
    for (const cls of level) {
      const implementations = implementationsOf(t, cls, CTX_OVERRIDE_CLASSES_MAX);
      // An interface's implementations, then the interfaces extending it (its subclassesOf).
      const derived: Subclass[] =
        cls.kind === 'interface'
          ? [...implementations.types, ...implementations.extending]
          : [...subclassesOf(t, cls, CTX_OVERRIDE_CLASSES_MAX).types, ...implementations.types];
      for (const sub of derived) {
        if (seen.has(key(sub))) continue;
        if (seen.size >= CTX_OVERRIDE_CLASSES_MAX) {
          capped = true;
          continue;
        }
        seen.add(key(sub));
        const guess = cls.resolution === 'candidate' || sub.resolution === 'candidate';
        const child: Subclass = guess ? { ...sub, resolution: 'candidate' } : sub;
        next.push(child);
        for (const m of methodsOf(t, child, focus.name).filter((m) => canOverride(t, focus, m))) {
          if (down.length < limit) down.push(guess ? { ...m, resolution: 'candidate' } : m);
          else more++;
        }
      }
    }
    level = next;
  }
  // A hierarchy wider than the walk (Django's Model has 145 subclasses): the name's other
  // methods are asked upward instead, whether their class derives from the owner. Counting
  // the classes left unwalked as overrides had said `overridden by 145` of a method no
  // subclass overrides (a Django trial).
  if (capped)
    for (const m of methodsNamed(t, focus.name)) {
      const cls = ownerOf(t, m);
      if (!cls || seen.has(key(cls)) || !canOverride(t, focus, m)) continue;
      const reach = derivesFrom(t, cls, owner);
      if (!reach) continue;
      if (down.length < limit) down.push(reach === 'candidate' ? { ...m, resolution: 'candidate' } : m);
      else more++;
    }
  return { overriddenBy: down, more, overrides: overridden(t, owner, focus) };
}

/** Methods (and prototypes) named `name` that a class owns, anywhere in the index. */
function methodsNamed(t: NavTarget, name: string): IndexedDefinition[] {
  return t.reader
    .definitions(name)
    .filter((d) => d.container !== null && (d.kind === 'method' || d.kind === 'prototype'));
}

/**
 * Whether `cls` derives from `base` within CTX_OVERRIDE_DEPTH levels of its bases: `resolved`
 * when a chain of certain links reaches it, `candidate` when only a guessed one does,
 * undefined when none does.
 */
function derivesFrom(
  t: NavTarget,
  cls: IndexedDefinition,
  base: IndexedDefinition,
): 'resolved' | 'candidate' | undefined {
  const target = key(base);
  let best: 'candidate' | undefined;
  const certain = upBases(t, cls, (b) => {
    if (key(b) !== target) return undefined;
    if (b.resolution !== 'candidate') return 'resolved' as const;
    best = 'candidate';
    return undefined;
  });
  return certain ?? best;
}

/** `m`, a `candidate` when `via` (the class it was found in) is one. */
function through(m: IndexedDefinition, via: Subclass): Subclass {
  return via.resolution === 'candidate' ? { ...m, resolution: 'candidate' } : m;
}

/**
 * The method `name` that `cls` has: its own, else the nearest base's up CTX_OVERRIDE_DEPTH
 * levels, breadth first, a `candidate` when a link of the chain is.
 */
export function methodOfClass(t: NavTarget, cls: IndexedDefinition, name: string): Subclass | undefined {
  return (
    methodsOf(t, cls, name)[0] ??
    upBases(t, cls, (base) => {
      const found = methodsOf(t, base, name)[0];
      return found && through(found, base);
    })
  );
}

/** The nearest method of the name up the base chain, breadth first, its certainty the chain's. */
function overridden(t: NavTarget, owner: IndexedDefinition, focus: IndexedDefinition): Subclass[] {
  return (
    upBases(t, owner, (base) => {
      const found = methodsOf(t, base, focus.name).filter((m) => canOverride(t, focus, m));
      return found.length > 0 ? found.map((m) => through(m, base)) : undefined;
    }) ?? []
  );
}

/**
 * The class (or interface, trait) owning `focus`: the one of its file first; in C and C++,
 * where a source file defines what a header's class declares, one of the name elsewhere.
 */
function ownerOf(t: NavTarget, focus: IndexedDefinition): IndexedDefinition | undefined {
  const name = lastSegment(focus.container!);
  const owners = t.reader.definitions(name).filter((d) => OWNER_KINDS.has(d.kind));
  const cFamily = codeFamilyOf(focus.file.lang) === 'c';
  return (
    owners.find((d) => d.file.id === focus.file.id && d.start <= focus.start && focus.end <= d.end) ??
    owners.find((d) => d.file.id === focus.file.id) ??
    (cFamily ? owners.find((d) => codeFamilyOf(d.file.lang) === 'c') : undefined)
  );
}

/**
 * The methods named `name` that `cls` owns: in its own file (a reopened Ruby class's other
 * bodies are another matter), and in C and C++ anywhere, where a class declares a method
 * and a source file defines it; the bodies rather than their declarations when both are
 * found (googletest's `PrettyUnitTestResultPrinter::OnTestStart` had listed both).
 */
function methodsOf(t: NavTarget, cls: IndexedDefinition, name: string): IndexedDefinition[] {
  const cFamily = codeFamilyOf(cls.file.lang) === 'c';
  const found = t.reader
    .definitions(name)
    .filter(
      (d) =>
        d.container !== null &&
        lastSegment(d.container) === cls.name &&
        (d.file.id === cls.file.id || (cFamily && codeFamilyOf(d.file.lang) === 'c')) &&
        (d.kind === 'method' || d.kind === 'prototype'),
    );
  const bodies = found.filter((d) => d.kind !== 'prototype');
  return bodies.length > 0 ? bodies : found;
}

/** Languages where a private or static method overrides nothing (C++'s private virtuals do). */
const NO_PRIVATE_OVERRIDES: ReadonlySet<string> = new Set(['java', 'csharp', 'php']);

/**
 * Whether `other`, a method of the name in a related class, can be an override of `focus`
 * (or `focus` of it): not private or static where that rules it out, and taking as many
 * parameters when neither has defaults or a variable list. The JDK's `Instant::plus(long,
 * long)`, private, was listed as overriding `Temporal::plus(TemporalAmount)` (a JDK trial).
 */
function canOverride(t: NavTarget, focus: IndexedDefinition, other: IndexedDefinition): boolean {
  const a = signatureOf(t, focus);
  const b = signatureOf(t, other);
  if (!a || !b) return true;
  if (NO_PRIVATE_OVERRIDES.has(other.file.lang) && (b.hidden || a.hidden)) return false;
  return a.parameters === undefined || b.parameters === undefined || a.parameters === b.parameters;
}

interface Signature {
  /** Private or static: no override. */
  readonly hidden: boolean;
  /** Parameters, when fixed (no default values, no variable list). */
  readonly parameters: number | undefined;
}

function signatureOf(t: NavTarget, d: IndexedDefinition): Signature | undefined {
  const bytes = readIndexedBytes(t.root, d.file);
  if (!bytes) return undefined;
  const text = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('utf8');
  const modifiers = text(d.start, d.nameStart).replace(/@\w+(\([^)]*\))?/g, ' ');
  return {
    hidden: /\b(?:private|static)\b/.test(modifiers),
    parameters: parameterCount(textAfter(bytes.subarray(0, d.end), d.nameEnd)),
  };
}
