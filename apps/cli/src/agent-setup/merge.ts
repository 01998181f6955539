// Pure merges of agent-setup's text into files the user may already have: the marked
// section of an AGENTS.md, the PreToolUse hook of a .claude/settings.json. Everything
// outside what Trufflepig owns is kept as it was.
import { HOOK_TIMEOUT_SECONDS } from '../limits';
import { SECTION_BEGIN, SECTION_END } from './text';

/** Codes of agent-setup's refusals (docs/cli.md lists them). */
export type AgentSetupErrorCode =
  'file_exists' | 'file_unreadable' | 'section_markers_broken' | 'settings_invalid' | 'write_failed' | 'root_not_found';

export interface SetupError {
  readonly code: AgentSetupErrorCode;
  readonly message: string;
}

export type FileAction = 'created' | 'replaced' | 'appended' | 'updated' | 'unchanged';

export type Merge =
  | { readonly ok: true; readonly text: string; readonly action: FileAction }
  | { readonly ok: false; readonly error: SetupError };

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/**
 * `section` (markers included) merged into an AGENTS.md: replaces the marked section when
 * there is one, else is appended after a blank line. Markers that do not pair up are
 * refused, never guessed at: the user's text could lie between them.
 */
export function mergeSection(existing: string | undefined, section: string, file = 'AGENTS.md'): Merge {
  if (existing === undefined || existing.trim() === '') return { ok: true, text: section, action: 'created' };
  const crlf = existing.includes('\r\n');
  const own = crlf ? section.replace(/\r?\n/g, '\r\n') : section;
  const begins = count(existing, SECTION_BEGIN);
  const ends = count(existing, SECTION_END);
  if (begins === 0 && ends === 0) {
    const eol = crlf ? '\r\n' : '\n';
    const sep = existing.endsWith(eol + eol) ? '' : existing.endsWith(eol) ? eol : eol + eol;
    return { ok: true, text: existing + sep + own, action: 'appended' };
  }
  const begin = existing.indexOf(SECTION_BEGIN);
  const end = existing.indexOf(SECTION_END);
  if (begins !== 1 || ends !== 1 || end < begin) {
    return {
      ok: false,
      error: {
        code: 'section_markers_broken',
        message: `${file} has ${begins} ${SECTION_BEGIN} and ${ends} ${SECTION_END} markers, not one pair in order; remove the stray markers (or the whole old section) and run agent-setup again`,
      },
    };
  }
  // The section's own trailing newline stands in for the one after the old end marker.
  let after = end + SECTION_END.length;
  if (existing.startsWith('\r\n', after)) after += 2;
  else if (existing.startsWith('\n', after)) after += 1;
  const text = existing.slice(0, begin) + own + existing.slice(after);
  return { ok: true, text, action: text === existing ? 'unchanged' : 'updated' };
}

/** A hook command this tool installed: `… trufflepig … hook claude` or `… main.js … hook claude`. */
export function isTrufflepigHook(command: string): boolean {
  return /(?:^|[\s/'"])(?:trufflepig|main\.js)\b/.test(command) && /\shook\s+claude\b/.test(command);
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `.claude/settings.json` with a PreToolUse hook on Bash running `command`: an existing
 * Trufflepig hook is updated in place (its matcher left as the user set it), else one
 * matcher group is added. Every other
 * setting and hook is kept; the file is rewritten as 2-space JSON.
 */
export function mergeHookSettings(
  existing: string | undefined,
  command: string,
  file = '.claude/settings.json',
): Merge {
  const invalid = (why: string): Merge => ({
    ok: false,
    error: {
      code: 'settings_invalid',
      message: `${file} ${why}; fix it by hand (agent-setup never drops settings) and run agent-setup again`,
    },
  });
  let settings: JsonObject = {};
  if (existing !== undefined && existing.trim() !== '') {
    let parsed: Json;
    try {
      parsed = JSON.parse(existing) as Json;
    } catch (err) {
      return invalid(`is not valid JSON (${(err as Error).message.split('\n')[0]})`);
    }
    if (!isObject(parsed)) return invalid('is not a JSON object');
    settings = parsed;
  }
  const hooks = settings.hooks ?? {};
  if (!isObject(hooks)) return invalid('has a "hooks" that is not an object');
  const pre = hooks.PreToolUse ?? [];
  if (!Array.isArray(pre)) return invalid('has a "hooks.PreToolUse" that is not an array');
  let found = false;
  for (const group of pre) {
    if (!isObject(group) || !Array.isArray(group.hooks)) continue;
    for (const h of group.hooks) {
      if (isObject(h) && typeof h.command === 'string' && isTrufflepigHook(h.command)) {
        found = true;
        h.command = command;
        h.type = 'command';
        h.timeout ??= HOOK_TIMEOUT_SECONDS;
      }
    }
  }
  if (!found) pre.push({ matcher: 'Bash', hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS }] });
  hooks.PreToolUse = pre;
  settings.hooks = hooks;
  const text = `${JSON.stringify(settings, null, 2)}\n`;
  if (existing === undefined || existing.trim() === '') return { ok: true, text, action: 'created' };
  if (!found) return { ok: true, text, action: 'appended' };
  // Same settings, maybe formatted otherwise: leave the user's file alone.
  return JSON.stringify(JSON.parse(existing)) === JSON.stringify(settings)
    ? { ok: true, text: existing, action: 'unchanged' }
    : { ok: true, text, action: 'updated' };
}
