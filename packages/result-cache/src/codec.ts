import type {
  ChangeRecord,
  ChangeSide,
  ChangeEntry,
  CommitEntry,
  EntryBase,
  LiveSourceEntry,
  NavigationRowFields,
  OwnerFields,
  ResultEntry,
  SearchHitFields,
  SetMeta,
  SetVerb,
  StoredSet,
} from './types';

// On-disk form of one set (documented in README.md). Pure: no I/O here.
// Entries of one search mostly share a handful of owner roots and member names, so those
// strings are stored once per set in `roots`/`members` and entries refer to them by index.
// Every other entry key is stored as given. Loading checks each stored field against its
// declared type (types.ts) here, once: a reader then uses the typed fields as they are.

export const SET_FORMAT = 'trufflepig.result-set';
export const SET_FORMAT_VERSION = 1;

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

type Check = (value: unknown) => boolean;

/** The keys of T a stored record may lack. */
type OptionalKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];

/**
 * A check of every optional field of T, by its declared type (a field declared and not
 * checked here does not compile). A stored value that fails its check is dropped: the
 * field reads as absent, as a reader that checked its type itself used to treat it.
 */
type FieldChecks<T> = { readonly [K in OptionalKeys<T>]-?: Check };

const isString = (v: unknown): boolean => typeof v === 'string';
const isTrue = (v: unknown): boolean => v === true;
const isNumber = (v: unknown): boolean => typeof v === 'number';
const isSnippet = (v: unknown): boolean => isRecord(v) && typeof v.line === 'number' && typeof v.text === 'string';
const isStringRecord = (v: unknown): boolean =>
  isRecord(v) && Object.values(v).every((item) => typeof item === 'string');

const BASE_FIELDS: FieldChecks<Omit<EntryBase, 'member'>> = {
  name: isString,
  kind: isString,
  sources: isStringArray,
  snippet: isSnippet,
};
const OWNER_FIELDS: FieldChecks<OwnerFields> = {
  cache: isString,
  root_id: isString,
  worktree: isTrue,
  git_common_dir: isString,
  owner: (v) => v === 'parent_index',
  owner_root: isString,
};
const isLineArray = (v: unknown): boolean => Array.isArray(v) && v.every(isLine);
const SEARCH_HIT_FIELDS: FieldChecks<SearchHitFields> = {
  lang: isString,
  scope: isStringArray,
  also_lines: isLineArray,
  excluded: isString,
};
const NAVIGATION_ROW_FIELDS: FieldChecks<NavigationRowFields> = {
  role: isString,
  roles: isStringArray,
  resolution: isString,
  definition: isString,
  within: isString,
  text: isString,
  repeats: isNumber,
  modifiers: isStringArray,
  names: isStringArray,
};
const LIVE_SOURCE_FIELDS: FieldChecks<Omit<LiveSourceEntry, 'member'>> = {
  ...BASE_FIELDS,
  ...OWNER_FIELDS,
  ...SEARCH_HIT_FIELDS,
  ...NAVIGATION_ROW_FIELDS,
  differs: isTrue,
  reextracted: isTrue,
  unsettled: isTrue,
};
const COMMIT_FIELDS: FieldChecks<Omit<CommitEntry, 'member'>> = {
  ...BASE_FIELDS,
  ...OWNER_FIELDS,
  ...SEARCH_HIT_FIELDS,
};
const CHANGE_FIELDS: FieldChecks<Omit<ChangeEntry, 'member'>> = { ...BASE_FIELDS, outside: isTrue };

type Tag = ResultEntry['tag'];

/** Per tag: its optional fields, and the fields it must have (a set lacking one is refused, saying which). */
const TAG_FIELDS: Readonly<
  Record<Tag, { optional: ReadonlyMap<string, Check>; required: readonly [string, Check, string][] }>
> = {
  live_source: { optional: new Map(Object.entries(LIVE_SOURCE_FIELDS)), required: [] },
  commit: {
    optional: new Map(Object.entries(COMMIT_FIELDS)),
    required: [
      ['date', isString, 'commit entry has no valid date'],
      ['changed', isStringArray, 'commit entry has no valid changed paths'],
      ['more_paths', isLine, 'commit entry has no valid more_paths count'],
    ],
  },
  change: {
    optional: new Map(Object.entries(CHANGE_FIELDS)),
    required: [['change', isChangeRecord, 'change entry has no valid change record']],
  },
};

/** Fields every entry must have, checked before its tag's own. */
const COMMON_REQUIRED: ReadonlySet<string> = new Set(['tag', 'path', 'revision', ...NUMERIC_FIELDS]);

const isTag = (v: unknown): v is Tag => typeof v === 'string' && Object.hasOwn(TAG_FIELDS, v);

function decodeEntry(raw: unknown, roots: string[], members: string[]): ResultEntry | string {
  if (!isRecord(raw)) return 'entry is not an object';
  const root = tableRef(roots, raw.root);
  if (root === undefined) return 'entry root index is invalid';
  let member: string | undefined;
  if ('member' in raw) {
    member = tableRef(members, raw.member);
    if (member === undefined) return 'entry member index is invalid';
  }
  if (!isTag(raw.tag)) return 'entry tag is invalid';
  if (typeof raw.path !== 'string' || typeof raw.revision !== 'string') return 'entry path or revision is not a string';
  for (const field of NUMERIC_FIELDS) {
    if (typeof raw[field] !== 'number') return `entry ${field} is not a number`;
  }
  const fields = TAG_FIELDS[raw.tag];
  for (const [field, check, reason] of fields.required) if (!check(raw[field])) return reason;
  const required = new Set(fields.required.map(([field]) => field));
  // In the stored key order; keys no type declares (and wrongly typed optional values) are left out.
  const entry: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'root') entry.root = root;
    else if (key === 'member') entry.member = member;
    else if (COMMON_REQUIRED.has(key) || required.has(key) || fields.optional.get(key)?.(value) === true)
      entry[key] = value;
  }
  // Every field was checked against its declared type above.
  return entry as unknown as ResultEntry;
}

const SET_VERBS: ReadonlySet<string> = new Set<SetVerb>(['refs', 'map', 'hist', 'blame', 'since', 'diff']);

const META_FIELDS: FieldChecks<SetMeta> = {
  words: isStringArray,
  lines: (v) =>
    isRecord(v) && (v.mode === 're' || v.mode === 'literal' || v.mode === 'identifier') && typeof v.text === 'string',
  members: isStringRecord,
  workspace: isString,
  scopes: isString,
  sections: (v) =>
    Array.isArray(v) &&
    v.every(
      (s) => isRecord(s) && isStringArray(s.scope) && typeof s.offset === 'number' && typeof s.count === 'number',
    ),
  nav: (v) => typeof v === 'string' && SET_VERBS.has(v),
  target: isString,
  coverage: isRecord,
  coverageLine: isString,
  notes: isStringArray,
  fileNotes: isStringRecord,
  page: (v) =>
    isRecord(v) &&
    Object.entries(v).every(([k, n]) => (k === 'limit' || k === 'context') && typeof n === 'number' && n >= 0),
};
const META_CHECKS: ReadonlyMap<string, Check> = new Map(Object.entries(META_FIELDS));

/** A set's meta with its fields checked as an entry's are (query and truncated are required). */
function decodeMeta(raw: unknown): SetMeta | undefined {
  if (!isRecord(raw) || typeof raw.query !== 'string' || typeof raw.truncated !== 'boolean') return undefined;
  const meta: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw))
    if (key === 'query' || key === 'truncated' || META_CHECKS.get(key)?.(value) === true) meta[key] = value;
  // query and truncated were checked, and every other field against its declared type.
  return meta as unknown as SetMeta;
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
  const meta = decodeMeta(parsed.meta);
  if (meta === undefined) return 'meta is invalid';
  if (!isStringArray(parsed.roots) || !isStringArray(parsed.members)) return 'roots or members table is invalid';
  if (!Array.isArray(parsed.entries)) return 'entries is not an array';
  const entries: ResultEntry[] = [];
  for (let i = 0; i < parsed.entries.length; i++) {
    const entry = decodeEntry(parsed.entries[i], parsed.roots, parsed.members);
    if (typeof entry === 'string') return `${entry} (entry ${i})`;
    entries.push(entry);
  }
  return { id: expectedId, createdAt: parsed.createdAt, meta, entries };
}
