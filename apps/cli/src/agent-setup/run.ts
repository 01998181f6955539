// `trufflepig agent-setup --claude|--codex|--agents-md [--hook [--block]] [--print] [--force]`:
// the words read, the files planned (pure, over a reader), then written all or none.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { invocation } from '../invocation';
import { shellQuote } from '../shell-quote';
import { mergeHookSettings, mergeSection, type FileAction, type SetupError } from './merge';
import { agentsSectionText, SKILL_NAME, skillText } from './text';

export type Harness = 'claude' | 'agents-md';

export interface SetupRequest {
  readonly harnesses: ReadonlySet<Harness>;
  readonly print: boolean;
  readonly force: boolean;
  readonly hook: boolean;
  readonly block: boolean;
}

export const SKILL_PATH = path.posix.join('.claude', 'skills', SKILL_NAME, 'SKILL.md');
export const AGENTS_PATH = 'AGENTS.md';
export const SETTINGS_PATH = path.posix.join('.claude', 'settings.json');

const HARNESS_CHOICES =
  '--claude (a skill in .claude/skills/trufflepig/; add --hook for the hint hook), --codex or --agents-md (a section in AGENTS.md)';

/** The request the words make, or the usage error they are. */
export function parseSetupWords(
  words: readonly string[],
): { ok: true; request: SetupRequest } | { ok: false; usage: string } {
  const harnesses = new Set<Harness>();
  const flags = new Set<string>();
  for (const w of words) {
    if (w === '--claude') harnesses.add('claude');
    else if (w === '--codex' || w === '--agents-md') harnesses.add('agents-md');
    else if (['--print', '--force', '--hook', '--block'].includes(w)) flags.add(w);
    else
      return {
        ok: false,
        usage: `agent-setup takes ${HARNESS_CHOICES}, and --print, --force, --hook, --block (not '${w.slice(0, 64)}')`,
      };
  }
  if (harnesses.size === 0)
    return {
      ok: false,
      usage: `agent-setup needs a harness: ${HARNESS_CHOICES}; --print shows the text and writes nothing`,
    };
  if (flags.has('--hook') && !harnesses.has('claude'))
    return { ok: false, usage: '--hook installs a Claude Code hook: pass it with --claude' };
  if (flags.has('--block') && !flags.has('--hook'))
    return { ok: false, usage: '--block configures the hook: pass it with --claude --hook' };
  return {
    ok: true,
    request: {
      harnesses,
      print: flags.has('--print'),
      force: flags.has('--force'),
      hook: flags.has('--hook'),
      block: flags.has('--block'),
    },
  };
}

export interface PlannedFile {
  /** Root-relative, `/`-separated. */
  readonly path: string;
  readonly action: FileAction;
  readonly text: string;
  /** The file exists, differs and --force was not given: writing it is refused. */
  readonly refused: boolean;
}

/** What the request writes, given `read` (a root-relative path's text, or undefined when there is no such file). */
export function planSetup(
  req: SetupRequest,
  read: (rel: string) => string | undefined,
  hookCommand: string,
): { ok: true; files: PlannedFile[] } | { ok: false; error: SetupError } {
  const files: PlannedFile[] = [];
  if (req.harnesses.has('claude')) {
    const existing = read(SKILL_PATH);
    const text = skillText();
    const action: FileAction = existing === undefined ? 'created' : existing === text ? 'unchanged' : 'replaced';
    files.push({ path: SKILL_PATH, action, text, refused: action === 'replaced' && !req.force });
    if (req.hook) {
      const merged = mergeHookSettings(read(SETTINGS_PATH), hookCommand, SETTINGS_PATH);
      if (!merged.ok) return merged;
      files.push({ path: SETTINGS_PATH, action: merged.action, text: merged.text, refused: false });
    }
  }
  if (req.harnesses.has('agents-md')) {
    const merged = mergeSection(read(AGENTS_PATH), agentsSectionText(), AGENTS_PATH);
    if (!merged.ok) return merged;
    files.push({ path: AGENTS_PATH, action: merged.action, text: merged.text, refused: false });
  }
  return { ok: true, files };
}

export interface SetupOptions {
  readonly root?: string;
  readonly cache?: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly json: boolean;
}

export type SetupOutcome =
  | { readonly kind: 'usage'; readonly message: string }
  | { readonly kind: 'error'; readonly error: SetupError }
  | { readonly kind: 'done'; readonly stdout: string; readonly stderr: string };

function reader(root: string): (rel: string) => string | undefined {
  return (rel) => {
    try {
      return fs.readFileSync(path.join(root, rel), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw Object.assign(new Error(`cannot read ${rel}: ${(err as Error).message}`), { setup: true });
    }
  };
}

/** Write through a symlink (AGENTS.md is often one) by renaming a sibling of the real file over it. */
function writeFile(root: string, rel: string, text: string): void {
  let target = path.join(root, rel);
  try {
    target = fs.realpathSync(target);
  } catch {
    fs.mkdirSync(path.dirname(target), { recursive: true });
  }
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  try {
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, target);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

function lines(
  root: string,
  files: readonly PlannedFile[],
  print: boolean,
  hook: string | undefined,
  indexNext: string | undefined,
): string {
  if (print) {
    return files
      .map((f) => {
        const state = f.refused
          ? 'exists and differs: writing it needs --force'
          : f.action === 'unchanged'
            ? 'unchanged'
            : `would be ${f.action}`;
        return `==> ${f.path} (${state}) <==\n${f.text}${f.text.endsWith('\n') ? '' : '\n'}`;
      })
      .join('\n');
  }
  let out = `root: ${root}\n${files.map((f) => `${f.action}  ${f.path}\n`).join('')}`;
  if (hook !== undefined) out += `hook: ${hook}\n`;
  if (indexNext !== undefined) out += `next: ${indexNext} (the hook hints only in an indexed root)\n`;
  return out;
}

/** Run agent-setup in the root (--root, else the Git top level of the cwd). */
export function runAgentSetup(words: readonly string[], o: SetupOptions): SetupOutcome {
  const parsed = parseSetupWords(words);
  if (!parsed.ok) return { kind: 'usage', message: parsed.usage };
  const req = parsed.request;
  const { topLevelOf } = require('@trufflepig/workspace/client') as typeof import('@trufflepig/workspace/client');
  const root = o.root !== undefined ? path.resolve(o.cwd, o.root) : topLevelOf(o.cwd);
  if (!fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
    return {
      kind: 'error',
      error: { code: 'root_not_found', message: `root ${root} is not a directory; pass --root DIR` },
    };
  }
  const cache = o.cache !== undefined ? path.resolve(o.cwd, o.cache) : undefined;
  const program = invocation(o.env);
  const cacheOption = cache !== undefined ? ` --cache ${shellQuote(cache)}` : '';
  const hookCommand = `${program}${cacheOption} hook claude${req.block ? ' --block' : ''}`;
  let plan: ReturnType<typeof planSetup>;
  try {
    plan = planSetup(req, reader(root), hookCommand);
  } catch (err) {
    if ((err as { setup?: boolean }).setup)
      return {
        kind: 'error',
        error: {
          code: 'file_unreadable',
          message: `${(err as Error).message}; fix its permissions or pass --root DIR`,
        },
      };
    throw err;
  }
  if (!plan.ok) return { kind: 'error', error: plan.error };
  const files = plan.files;
  const refused = files.find((f) => f.refused);
  if (refused && !req.print) {
    return {
      kind: 'error',
      error: {
        code: 'file_exists',
        message: `${refused.path} exists and is not the one agent-setup writes; pass --force to replace it, or --print to see the new text`,
      },
    };
  }
  if (!req.print) {
    for (const f of files) {
      if (f.action === 'unchanged') continue;
      try {
        writeFile(root, f.path, f.text);
      } catch (err) {
        return {
          kind: 'error',
          error: {
            code: 'write_failed',
            message: `cannot write ${f.path}: ${(err as Error).message.split('\n')[0]}; check the directory's permissions`,
          },
        };
      }
    }
  }
  const hook = req.hook ? hookCommand : undefined;
  const { cacheDirForRoot } =
    require('@trufflepig/member-root/cache-dir') as typeof import('@trufflepig/member-root/cache-dir');
  const indexed = fs.existsSync(cacheDirForRoot(fs.realpathSync(root), { cacheOverride: cache, env: o.env }));
  const indexNext =
    hook !== undefined && !indexed
      ? `${program}${o.root !== undefined ? ` --root ${shellQuote(root)}` : ''}${cacheOption} index`
      : undefined;
  const stdout = o.json
    ? `${JSON.stringify({ root, written: !req.print, files: files.map((f) => ({ path: f.path, action: f.action, ...(f.refused ? { refused: true } : {}), ...(req.print ? { text: f.text } : {}) })), ...(hook !== undefined ? { hook, indexed } : {}) })}\n`
    : lines(root, files, req.print, hook, indexNext);
  const stderr =
    program === 'trufflepig'
      ? ''
      : `trufflepig: note: trufflepig is not on PATH; the instructions call it by that name, so put it on PATH${req.hook ? ' (the hook runs by absolute path)' : ''}\n`;
  return { kind: 'done', stdout, stderr };
}
