import type { ChangeRecord, ChangeSide, ResultEntry, SetMeta, StoredSet } from './types';

// On-disk form of one set (documented in README.md). Pure: no I/O here.
// Entries of one search mostly share a handful of owner roots and member names, so those
// strings are stored once per set in `roots`/`members` and entries refer to them by index.
// Every other entry key is kept verbatim.

export const SET_FORMAT = 'trufflepig.result-set';
export const SET_FORMAT_VERSION = 1;

const TAGS: ReadonlySet<string> = new Set(['live_source', 'commit', 'change']);
const NUMERIC_FIELDS = ['generation', 'start', 'end', 'start_line', 'end_line'] as const;

interface Interner {
  table: string[];
  index: Map<string, number>;
}

function intern(interner: Interner, value: string): number {
  let at = interner.index.get(value);
  if (at === undefined) {
    at = interner.table.length;
    interner.table.push(value);
    interner.index.set(value, at);
  }
  return at;
}

export function encodeSet(set: StoredSet): string {
  const roots: Interner = { table: [], index: new Map() };
  const members: Interner = { table: [], index: new Map() };
  const entries = set.entries.map((entry) => {
    const stored: Record<string, unknown> = { ...entry, root: intern(roots, entry.root) };
    if (typeof entry.member === 'string') stored.member = intern(members, entry.member);
    return stored;
  });
  return JSON.stringify({
    format: SET_FORMAT,
    version: SET_FORMAT_VERSION,
    id: set.id,
    createdAt: set.createdAt,
    meta: set.meta,
    roots: roots.table,
    members: members.table,
    entries,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

const EVENTS: ReadonlySet<string> = new Set(['added', 'moved', 'renamed', 'boundary']);

function isLine(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isChangeSide(value: unknown): value is ChangeSide {
  if (!isRecord(value) || typeof value.path !== 'string') return false;
  if (value.start_line === undefined && value.end_line === undefined) return true;
  return isLine(value.start_line) && isLine(value.end_line);
}

/** Whether `value` is a change record a `show` can rebuild the change from (the on-disk form is the type's). */
export function isChangeRecord(value: unknown): value is ChangeRecord {
  if (!isRecord(value)) return false;
  const v = value;
  return (
    typeof v.repo === 'string' &&
    typeof v.commit === 'string' &&
    /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(v.commit) &&
    (v.parent === undefined || (typeof v.parent === 'string' && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(v.parent))) &&
    isChangeSide(v.after) &&
    (v.before === undefined || isChangeSide(v.before)) &&
    (v.whole_file === undefined || typeof v.whole_file === 'boolean') &&
    (v.merge === undefined || typeof v.merge === 'boolean') &&
    typeof v.date === 'string' &&
    typeof v.subject === 'string' &&
    (v.added === undefined || isLine(v.added)) &&
    (v.deleted === undefined || isLine(v.deleted)) &&
    (v.event === undefined || (typeof v.event === 'string' && EVENTS.has(v.event))) &&
    (v.worktree === undefined || (typeof v.worktree === 'string' && /^[0-9a-f]{64}$/.test(v.worktree))) &&
    (v.whitespace_only === undefined || typeof v.whitespace_only === 'boolean')
  );
}

function tableRef(table: string[], ref: unknown): string | undefined {
  return typeof ref === 'number' && Number.isInteger(ref) && ref >= 0 && ref < table.length ? table[ref] : undefined;
}

function decodeEntry(raw: unknown, roots: string[], members: string[]): ResultEntry | string {
  if (!isRecord(raw)) return 'entry is not an object';
  const root = tableRef(roots, raw.root);
  if (root === undefined) return 'entry root index is invalid';
  const entry: Record<string, unknown> = { ...raw, root };
  if ('member' in raw) {
    const member = tableRef(members, raw.member);
    if (member === undefined) return 'entry member index is invalid';
    entry.member = member;
  }
  if (typeof raw.tag !== 'string' || !TAGS.has(raw.tag)) return 'entry tag is invalid';
  if (typeof raw.path !== 'string' || typeof raw.revision !== 'string') return 'entry path or revision is not a string';
  for (const field of NUMERIC_FIELDS) {
    if (typeof raw[field] !== 'number') return `entry ${field} is not a number`;
  }
  if (raw.tag === 'change' && !isChangeRecord(raw.change)) return 'change entry has no valid change record';
  return entry as ResultEntry;
}

/** Decodes a set file's text; returns a reason string when it is not a valid set `expectedId`. */
export function decodeSet(text: string, expectedId: string): StoredSet | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'not valid JSON';
  }
  if (!isRecord(parsed)) return 'not a JSON object';
  if (parsed.format !== SET_FORMAT) return `format is not ${SET_FORMAT}`;
  if (parsed.version !== SET_FORMAT_VERSION) return `unsupported format version ${JSON.stringify(parsed.version)}`;
  // The id inside must match the file name: a set is never served under another set's id.
  if (parsed.id !== expectedId) return 'set id inside the file does not match its name';
  if (typeof parsed.createdAt !== 'number' || !Number.isSafeInteger(parsed.createdAt))
    return 'createdAt is not an integer';
  const meta = parsed.meta;
  if (!isRecord(meta) || typeof meta.query !== 'string' || typeof meta.truncated !== 'boolean')
    return 'meta is invalid';
  if (!isStringArray(parsed.roots) || !isStringArray(parsed.members)) return 'roots or members table is invalid';
  if (!Array.isArray(parsed.entries)) return 'entries is not an array';
  const entries: ResultEntry[] = [];
  for (let i = 0; i < parsed.entries.length; i++) {
    const entry = decodeEntry(parsed.entries[i], parsed.roots, parsed.members);
    if (typeof entry === 'string') return `${entry} (entry ${i})`;
    entries.push(entry);
  }
  return { id: expectedId, createdAt: parsed.createdAt, meta: meta as SetMeta, entries };
}
