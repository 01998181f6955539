// How a request to a root daemon or a workspace coordinator carries options: a flat map
// of plain values (the runtime protocol's `options`), written and read by the same table
// (OPTION_TABLE[].wire and WIRE_ONLY_FIELDS), so the client and the daemon cannot disagree.
import {
  OPTION_TABLE,
  VERB_TABLE,
  WIRE_ONLY_FIELDS,
  type CliOptions,
  type OptionSpec,
  type ServedVerbName,
} from './table';

/** A value a request's option map holds (the runtime protocol's `OptionValue`). */
export type WireValue = string | number | boolean;

/** A request's option map. */
export type WireMap = Record<string, WireValue>;

/** The options a request can carry, decoded. */
export interface WireOptions {
  readonly root?: string;
  readonly cache?: string;
  /** The workspace configuration file the client resolved (never the option as typed). */
  readonly workspace?: string;
  readonly member?: string;
  readonly budget?: number;
  readonly limit?: number;
  readonly context?: number;
  /** Lines unless the request asks for JSON (lines is every verb's default). */
  readonly format: 'json' | 'lines';
  readonly scopes?: 'shared' | 'per_source';
  readonly noWorkspace?: true;
  /** The MCP front end's structured content: the JSON view of the same answer, beside the lines. */
  readonly alsoJson?: true;
  /** An in-process caller that must start nothing (a daemon's own requests never say so). */
  readonly noDaemon?: true;
}

/** What encodeWire takes: any of the fields, undefined and false ones left out. */
export type WireInput = {
  readonly [K in keyof WireOptions]?: WireOptions[K] | (WireOptions[K] extends true | undefined ? boolean : never);
};

interface Field {
  readonly key: keyof WireOptions;
  readonly type: 'string' | 'number' | 'boolean';
  readonly choices?: readonly string[];
  readonly default?: string | boolean;
  readonly forwarded: boolean;
}

/** Every field of the wire, in table order: the options' own, then the request-only ones. */
const FIELDS: readonly Field[] = [
  ...(OPTION_TABLE as readonly OptionSpec[]).flatMap((o): Field[] =>
    o.wire === undefined
      ? []
      : [
          {
            key: o.wire.key as keyof WireOptions,
            type: o.type,
            forwarded: o.wire.forwarded,
            ...(o.choices !== undefined ? { choices: o.choices } : {}),
            ...(o.default !== undefined && o.type !== 'boolean' ? { default: o.default } : {}),
          },
        ],
  ),
  ...WIRE_ONLY_FIELDS.map((f): Field => ({ key: f.key, type: f.type, forwarded: false })),
];

/** The keys of a request's option map. */
export const WIRE_KEYS: readonly string[] = FIELDS.map((f) => f.key);

/** The verbs a root daemon (or a workspace's coordinator) answers: the fast path's verbs. */
export const SERVED_VERBS: ReadonlySet<ServedVerbName> = new Set(
  VERB_TABLE.flatMap((v) => (v.served ? [v.name as ServedVerbName] : [])),
);

/** The served verbs that start the root's daemon (or the workspace's coordinator) when none runs. */
export const DAEMON_STARTING_VERBS: ReadonlySet<ServedVerbName> = new Set(
  VERB_TABLE.flatMap((v) =>
    v.served && !('startsNoDaemon' in v && v.startsNoDaemon) ? [v.name as ServedVerbName] : [],
  ),
);

function encodeFields(
  values: Readonly<Record<string, unknown>>,
  fields: readonly Field[],
  keyOf: (f: Field) => string,
): WireMap {
  const out: WireMap = {};
  for (const f of fields) {
    const v = values[keyOf(f)];
    if (v === undefined || v === false) continue;
    out[f.key] = v as WireValue;
  }
  return out;
}

/** The option map of a request: every field given, undefined and false ones left out. */
export function encodeWire(options: WireInput): WireMap {
  return encodeFields(options, FIELDS, (f) => f.key);
}

/**
 * What a CLI call sends to the daemon it asks: the forwarded fields of its options
 * (root, cache, member, budget, limit, context, format, scopes, noWorkspace). The client
 * adds `workspace` itself when it addresses a coordinator.
 */
export function forwardedWire(options: Partial<CliOptions>): WireMap {
  const byKey = new Map(
    (OPTION_TABLE as readonly OptionSpec[]).flatMap((o) =>
      o.wire !== undefined ? [[o.wire.key, o.key] as const] : [],
    ),
  );
  return encodeFields(
    options,
    FIELDS.filter((f) => f.forwarded),
    (f) => byKey.get(f.key) ?? f.key,
  );
}

/**
 * The options a request's map carries. Each field is taken only with its type (and, for
 * a field with choices, only a choice; `format` is `lines` unless it is `json`); a boolean
 * only when true; unknown keys are ignored.
 */
export function decodeWire(map: Readonly<Record<string, unknown>>): WireOptions {
  const out: Record<string, WireValue> = {};
  for (const f of FIELDS) {
    const v = map[f.key];
    if (f.type === 'boolean') {
      if (v === true) out[f.key] = true;
    } else if (f.choices !== undefined) {
      if (typeof v === 'string' && f.choices.includes(v)) out[f.key] = v;
      else if (typeof f.default === 'string') out[f.key] = f.default;
    } else if (typeof v === f.type) out[f.key] = v as WireValue;
  }
  return out as unknown as WireOptions;
}
