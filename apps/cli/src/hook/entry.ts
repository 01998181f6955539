// `trufflepig hook claude [--block]`: what Claude Code runs before every Bash call. It
// loads only the classifier until a command looks like a lookup, and never exits 2
// (PreToolUse reads exit 2 as "block this call"): a wrong call is exit 1 and one line.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as tty from 'node:tty';
import { HOOK_INPUT_MAX_BYTES } from '../limits';
import { invocation } from '../invocation';
import { answerPreToolUse } from './claude';

/** The harnesses `hook` answers for. */
export const HOOK_HARNESSES = ['claude'] as const;

function usage(message: string): number {
  process.stderr.write(
    `trufflepig: bad_arguments: ${message}; Claude Code runs: trufflepig hook claude [--block] (install it with trufflepig agent-setup --claude --hook)\n`,
  );
  return 1;
}

/** Run the hook verb: `words` after the verb, `options` the tool's split options (for --cache). */
export function runHookVerb(words: readonly string[], options: readonly string[]): number {
  const [harness, ...rest] = words;
  if (harness !== 'claude')
    return usage(harness === undefined ? 'hook needs a harness' : `hook knows no harness '${harness.slice(0, 64)}'`);
  if (rest.some((w) => w !== '--block'))
    return usage(`hook claude takes only --block (not '${rest.find((w) => w !== '--block')?.slice(0, 64)}')`);
  // isatty, not process.stdin.isTTY: touching process.stdin makes a pipe non-blocking, and
  // readFileSync(0) then failed EAGAIN when the JSON came a moment later (an agent trial:
  // `(sleep 0.3; cat call.json) | trufflepig hook claude` printed nothing).
  if (tty.isatty(0)) return usage('hook claude reads one PreToolUse call as JSON on stdin');
  let input: Buffer;
  try {
    input = fs.readFileSync(0);
  } catch (err) {
    process.stderr.write(
      `trufflepig: bad_hook_input: stdin could not be read (${(err as NodeJS.ErrnoException).code ?? 'error'}); Claude Code sends the PreToolUse call as JSON on stdin\n`,
    );
    return 1;
  }
  if (input.length > HOOK_INPUT_MAX_BYTES) return 0;
  const cacheAt = options.lastIndexOf('--cache');
  const cacheOverride = cacheAt >= 0 && cacheAt + 1 < options.length ? path.resolve(options[cacheAt + 1]) : undefined;
  try {
    const answer = answerPreToolUse(input.toString('utf8'), {
      now: Date.now(),
      env: process.env,
      cwd: process.cwd(),
      block: rest.includes('--block'),
      program: () => invocation(process.env),
      ...(cacheOverride !== undefined ? { cacheOverride } : {}),
    });
    if (answer.stdout) process.stdout.write(answer.stdout);
    if (answer.stderr) process.stderr.write(answer.stderr);
    return answer.exitCode;
  } catch (err) {
    // main's last resort exits 2, which would block the user's command.
    process.stderr.write(
      `trufflepig: internal_error: ${String(err instanceof Error ? err.message : err)
        .split('\n')[0]
        .slice(0, 300)}\n`,
    );
    return 1;
  }
}
