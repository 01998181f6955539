// A tool call's arguments checked against its schema, by the same table the client sees:
// pure, so every refusal is a tested value before anything runs.
import type { Outcome } from '@trufflepig/workspace';
import type { ArgumentSchema, ToolSpec } from './table';

/** What a checked call runs: the verb, its words, and the per-call options. */
export interface VerbCall {
  readonly verb: ToolSpec['name'];
  readonly words: readonly string[];
  readonly budget: number;
  readonly limit?: number;
  readonly context?: number;
  readonly member?: string;
  readonly scopes?: 'shared' | 'per_source';
  /** `show --side before|after` of a change handle. */
  readonly side?: 'before' | 'after';
}

function bad(message: string): Outcome<never> {
  return { ok: false, error: { code: 'bad_arguments', message } };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  return typeof value === 'number' ? String(value) : `a ${typeof value}`;
}

/** One argument against its schema: the refusal's text, or undefined when it conforms. */
function violation(name: string, schema: ArgumentSchema, value: unknown): string | undefined {
  if (schema.type === 'boolean')
    return typeof value === 'boolean' ? undefined : `${name} takes true or false (not ${describe(value)})`;
  if (schema.type === 'integer') {
    if (typeof value !== 'number' || !Number.isInteger(value))
      return `${name} takes a whole number (not ${describe(value)})`;
    if (value < schema.minimum || value > schema.maximum)
      return `${name} takes ${schema.minimum} to ${schema.maximum} (not ${value})`;
    return undefined;
  }
  if (typeof value !== 'string') return `${name} takes a string (not ${describe(value)})`;
  if ('enum' in schema)
    return schema.enum.includes(value)
      ? undefined
      : `${name} takes one of ${schema.enum.join(', ')} (not ${JSON.stringify(value.slice(0, 40))})`;
  if (value.trim().length < schema.minLength) return `${name} must not be empty`;
  if (value.length > schema.maxLength) return `${name} is over ${schema.maxLength} characters`;
  return undefined;
}

/**
 * The verb call a tool's arguments ask for, or `bad_arguments` naming the first argument
 * that is missing, unknown, of the wrong type or out of range.
 */
export function checkArguments(tool: ToolSpec, args: unknown): Outcome<VerbCall> {
  const given = args ?? {};
  if (typeof given !== 'object' || Array.isArray(given))
    return bad(`${tool.name} takes an object of arguments (not ${describe(given)})`);
  const record = given as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!Object.hasOwn(tool.properties, key))
      return bad(
        `${tool.name} has no argument ${JSON.stringify(key.slice(0, 40))}; it takes ${Object.keys(tool.properties).join(', ')}`,
      );
  }
  for (const key of tool.required) if (record[key] === undefined) return bad(`${tool.name} needs ${key}`);
  for (const [key, schema] of Object.entries(tool.properties)) {
    if (record[key] === undefined) continue;
    const why = violation(key, schema, record[key]);
    if (why) return bad(why);
  }
  if (tool.exactlyOne !== undefined) {
    const given = tool.exactlyOne.filter((key) => record[key] !== undefined && record[key] !== false);
    if (given.length !== 1)
      return bad(
        `${tool.name} takes exactly one of ${tool.exactlyOne.join(', ')}${given.length > 1 ? ` (not both ${given.join(' and ')})` : ''}`,
      );
  }
  const subject = tool.subject !== undefined ? (record[tool.subject] as string).trim() : undefined;
  // Each word argument given: a boolean's flag alone, else the flag (if any) and the value as one word.
  const more = (tool.words ?? []).flatMap((w): string[] => {
    const v = record[w.arg];
    if (v === undefined || v === false) return [];
    if (v === true) return w.flag !== undefined ? [w.flag] : [];
    return [...(w.flag !== undefined ? [w.flag] : []), (v as string).trim()];
  });
  return {
    ok: true,
    value: {
      verb: tool.name,
      // The subject is one word: the verbs join their words with spaces and parse the query
      // language themselves (quotes, filters), exactly as the CLI's argv words.
      words: [...(subject !== undefined ? [subject] : []), ...more],
      budget: (record.budget as number | undefined) ?? tool.defaultBudget,
      ...(record.limit !== undefined ? { limit: record.limit as number } : {}),
      ...(record.context !== undefined ? { context: record.context as number } : {}),
      ...(record.member !== undefined ? { member: record.member as string } : {}),
      ...(record.scopes !== undefined ? { scopes: record.scopes as 'shared' | 'per_source' } : {}),
      ...(record.side !== undefined ? { side: record.side as 'before' | 'after' } : {}),
    },
  };
}
