// At most one hint per command class per session within HINT_INTERVAL_MS. The decision is
// pure (the clock is a value); the state is one small JSON file in the root's cache
// directory, replaced by rename so a reader never sees half of it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HINT_INTERVAL_MS, HINT_STATE_MAX_ENTRIES } from '../limits';

/** The state file's name inside a root's cache directory. */
export const HINT_STATE_FILE = 'hook-hints.json';

export interface HintState {
  /** `SESSION|CLASS` → when its last hint was given (ms since the epoch). */
  readonly last: Readonly<Record<string, number>>;
}

export const hintKey = (session: string, commandClass: string): string => `${session}|${commandClass}`;

export interface HintDecision {
  readonly hint: boolean;
  /** The state to keep: the hint recorded, entries older than the interval dropped. */
  readonly next: HintState;
}

/** Whether `key` may get a hint at `now`. A clock that went back counts as the interval having passed. */
export function decideHint(
  state: HintState | undefined,
  key: string,
  now: number,
  interval: number = HINT_INTERVAL_MS,
): HintDecision {
  const last = state?.last ?? {};
  const previous = Object.hasOwn(last, key) ? last[key] : undefined;
  const hint = previous === undefined || now < previous || now - previous >= interval;
  const kept = Object.entries(last).filter(([k, t]) => k !== key && t <= now && now - t < interval);
  if (hint) kept.push([key, now]);
  else if (previous !== undefined) kept.push([key, previous]);
  kept.sort((a, b) => b[1] - a[1]);
  return { hint, next: { last: Object.fromEntries(kept.slice(0, HINT_STATE_MAX_ENTRIES)) } };
}

/** The state as stored, or undefined when the file is missing or not one we wrote. */
export function parseHintState(text: string): HintState | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    if (
      typeof v !== 'object' ||
      v === null ||
      typeof (v as { last?: unknown }).last !== 'object' ||
      (v as { last: unknown }).last === null
    )
      return undefined;
    const last: Record<string, number> = {};
    for (const [k, t] of Object.entries((v as { last: Record<string, unknown> }).last))
      if (typeof t === 'number' && Number.isFinite(t)) last[k] = t;
    return { last };
  } catch {
    return undefined;
  }
}

export function readHintState(file: string): HintState | undefined {
  try {
    return parseHintState(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Write the state; a cache directory that refuses writes costs only the rate limit. */
export function writeHintState(file: string, state: HintState): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    fs.writeFileSync(tmp, `${JSON.stringify(state)}\n`, { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // nothing more to do: the next hint simply is not rate-limited
    }
  }
}
