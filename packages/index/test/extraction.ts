// Assertions on an extraction shared by the extractor tests.
import type { Definition, Extraction } from '../src';
import { roleNames } from '../src/extract/facts';

/** `Owner::name:kind` of every definition, in source order. */
export function defs(x: Extraction): string[] {
  return x.definitions.map((d) => `${d.container ? d.container + '::' : ''}${d.name}:${d.kind}`);
}

/** The role names of a name's occurrences; throws when the name does not occur. */
export function roles(x: Extraction, name: string): string[] {
  const u = x.names.find((n) => n.name === name);
  if (!u) throw new Error(`no occurrence of ${name}`);
  return roleNames(u.roles);
}

/** Every definition's span and name span point at the exact bytes of the source. */
export function expectExactSpans(bytes: Buffer, list: readonly Definition[]): void {
  for (const d of list) {
    expect(bytes.subarray(d.nameStart, d.nameEnd).toString('utf8')).toBe(d.name);
    expect(d.start).toBeLessThanOrEqual(d.nameStart);
    expect(d.end).toBeGreaterThanOrEqual(d.nameEnd);
  }
}
