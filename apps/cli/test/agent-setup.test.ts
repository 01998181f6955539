// `trufflepig agent-setup` on temporary repositories: a fresh root, an existing AGENTS.md
// (merged, idempotent), an existing skill (refused without --force), --print (writes
// nothing), --hook (settings.json merged, the user's settings kept); and the instruction
// text itself: short, and every example in it runs.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { agentsSectionText, instructionsBody, SECTION_BEGIN, SECTION_END, skillText } from '../src/agent-setup/text';
import { parseCommandLine, texts } from '../src/hook/shell-words';
import { makeRepo, runCli, tempDir, tokens, type Run } from './cli';

const SKILL = path.join('.claude', 'skills', 'trufflepig', 'SKILL.md');
const SETTINGS = path.join('.claude', 'settings.json');

/** A fresh Git repository with nothing in it. */
function freshRoot(): string {
  const root = path.join(tempDir('setup'), 'root');
  fs.mkdirSync(root);
  expect(spawnSync('git', ['init', '-q', root]).status).toBe(0);
  return root;
}

const setup = (root: string, ...args: string[]): Run => runCli(['agent-setup', ...args], root, { lines: true });
const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

function expectError(r: Run, code: string): void {
  expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 2, stdout: '' });
  expect(r.stderr.split('\n')[0]).toMatch(new RegExp(`^trufflepig: ${code}: `));
}

describe('agent-setup --claude', () => {
  it('writes the skill in a fresh root, then leaves it unchanged', () => {
    const root = freshRoot();
    const first = setup(root, '--claude');
    expect(first.status).toBe(0);
    expect(first.stdout).toBe(`root: ${root}\ncreated  .claude/skills/trufflepig/SKILL.md\n`);
    const text = read(root, SKILL);
    expect(text).toBe(skillText());
    expect(text).toMatch(
      /^---\nname: trufflepig\ndescription: [^\n]*grep -r, rg, git grep, find -name or fd[^\n]*\n---\n\n# /,
    );
    // From a subdirectory: the root is the Git top level.
    fs.mkdirSync(path.join(root, 'sub'));
    const again = setup(path.join(root, 'sub'), '--claude');
    expect(again.stdout).toBe(`root: ${root}\nunchanged  .claude/skills/trufflepig/SKILL.md\n`);
    expect(fs.existsSync(path.join(root, 'AGENTS.md'))).toBe(false);
  });

  it('refuses to overwrite a skill the user changed, and replaces it with --force', () => {
    const root = freshRoot();
    fs.mkdirSync(path.join(root, '.claude', 'skills', 'trufflepig'), { recursive: true });
    fs.writeFileSync(path.join(root, SKILL), '---\nname: trufflepig\ndescription: mine\n---\nmy notes\n');
    const refused = setup(root, '--claude');
    expectError(refused, 'file_exists');
    expect(refused.stderr).toContain('pass --force to replace it');
    expect(read(root, SKILL)).toBe('---\nname: trufflepig\ndescription: mine\n---\nmy notes\n');
    // All or nothing: with an AGENTS.md target too, nothing is written.
    expectError(setup(root, '--claude', '--agents-md'), 'file_exists');
    expect(fs.existsSync(path.join(root, 'AGENTS.md'))).toBe(false);
    const forced = setup(root, '--claude', '--force');
    expect(forced.status).toBe(0);
    expect(forced.stdout).toContain('replaced  .claude/skills/trufflepig/SKILL.md');
    expect(read(root, SKILL)).toBe(skillText());
  });

  it('--print shows every file it would write and writes nothing', () => {
    const root = freshRoot();
    const printed = setup(root, '--claude', '--hook', '--agents-md', '--print');
    expect(printed.status).toBe(0);
    expect(printed.stdout).toContain(`==> .claude/skills/trufflepig/SKILL.md (would be created) <==\n${skillText()}`);
    expect(printed.stdout).toContain('==> .claude/settings.json (would be created) <==\n{\n  "hooks"');
    expect(printed.stdout).toContain(`==> AGENTS.md (would be created) <==\n${agentsSectionText()}`);
    expect(fs.readdirSync(root)).toEqual(['.git']);
    const json = runCli(['--json', 'agent-setup', '--agents-md', '--print'], root).json<{
      written: boolean;
      files: { path: string; action: string; text: string }[];
    }>();
    expect(json.written).toBe(false);
    expect(json.files).toEqual([{ path: 'AGENTS.md', action: 'created', text: agentsSectionText() }]);
    expect(fs.readdirSync(root)).toEqual(['.git']);
  });

  it("--hook merges a PreToolUse hook into settings.json, keeping the user's settings, idempotently", () => {
    const root = freshRoot();
    const mine = {
      permissions: { allow: ['Bash(npm test:*)'] },
      hooks: {
        PreToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: './check.sh' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
      },
      model: 'opus',
    };
    fs.mkdirSync(path.join(root, '.claude'));
    fs.writeFileSync(path.join(root, SETTINGS), JSON.stringify(mine));
    const first = setup(root, '--claude', '--hook');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('appended  .claude/settings.json\n');
    const hookLine = /^hook: (.+ hook claude)$/m.exec(first.stdout);
    expect(hookLine).not.toBeNull();
    expect(first.stdout).toContain(' index (the hook hints only in an indexed root)');
    const merged = JSON.parse(read(root, SETTINGS));
    expect(merged.permissions).toEqual(mine.permissions);
    expect(merged.model).toBe('opus');
    expect(merged.hooks.Stop).toEqual(mine.hooks.Stop);
    expect(merged.hooks.PreToolUse).toEqual([
      mine.hooks.PreToolUse[0],
      { matcher: 'Bash', hooks: [{ type: 'command', command: hookLine![1], timeout: 5 }] },
    ]);
    const bytes = read(root, SETTINGS);
    expect(setup(root, '--claude', '--hook').stdout).toContain('unchanged  .claude/settings.json\n');
    expect(read(root, SETTINGS)).toBe(bytes);
    // --block changes the one hook in place: no second entry.
    const blocking = setup(root, '--claude', '--hook', '--block');
    expect(blocking.stdout).toContain('updated  .claude/settings.json\n');
    const after = JSON.parse(read(root, SETTINGS));
    expect(after.hooks.PreToolUse).toHaveLength(2);
    expect(after.hooks.PreToolUse[1].hooks[0].command).toBe(`${hookLine![1]} --block`);
  });

  it('the installed hook command runs and answers a PreToolUse call', () => {
    const repo = makeRepo({ 'src/lib.rs': 'pub struct TokenBucket;\n' }, 'setup-hook');
    expect(repo.cli('index').status).toBe(0);
    const r = runCli(['--cache', repo.cache, 'agent-setup', '--claude', '--hook'], repo.root, { lines: true });
    expect(r.stdout).not.toContain('next:');
    const command = JSON.parse(read(repo.root, SETTINGS)).hooks.PreToolUse[0].hooks[0].command as string;
    expect(command).toContain(`--cache ${repo.cache} hook claude`);
    const input = JSON.stringify({
      session_id: 's',
      cwd: repo.root,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'grep -rn TokenBucket src' },
    });
    const ran = spawnSync('/bin/sh', ['-c', command], {
      input,
      encoding: 'utf8',
      cwd: repo.root,
      env: { ...process.env, XDG_CACHE_HOME: tempDir('setup-xdg') },
    });
    expect(ran.status).toBe(0);
    // The suggestion opens the index the hook found: under the --cache it was installed with.
    expect(JSON.parse(ran.stdout).hookSpecificOutput.additionalContext).toContain(
      `--cache ${repo.cache} search TokenBucket file:src/`,
    );
  });

  it('refuses a settings.json it cannot read as JSON, leaving it alone', () => {
    const root = freshRoot();
    fs.mkdirSync(path.join(root, '.claude'));
    fs.writeFileSync(path.join(root, SETTINGS), '{ "model": "opus", }');
    expectError(setup(root, '--claude', '--hook'), 'settings_invalid');
    expect(read(root, SETTINGS)).toBe('{ "model": "opus", }');
    expect(fs.existsSync(path.join(root, SKILL))).toBe(false);
  });
});

describe('agent-setup --agents-md / --codex', () => {
  it('writes the marked section in a fresh root', () => {
    const root = freshRoot();
    expect(setup(root, '--agents-md').stdout).toBe(`root: ${root}\ncreated  AGENTS.md\n`);
    expect(read(root, 'AGENTS.md')).toBe(agentsSectionText());
  });

  it('merges into an existing AGENTS.md, idempotently, and updates only its own section', () => {
    const root = freshRoot();
    const mine = '# Project rules\n\nRun `make test` before committing.\n';
    fs.writeFileSync(path.join(root, 'AGENTS.md'), mine);
    expect(setup(root, '--codex').stdout).toContain('appended  AGENTS.md\n');
    const merged = read(root, 'AGENTS.md');
    expect(merged).toBe(`${mine}\n${agentsSectionText()}`);
    expect(setup(root, '--agents-md').stdout).toContain('unchanged  AGENTS.md\n');
    expect(read(root, 'AGENTS.md')).toBe(merged);
    // A stale section between the markers (an older version, a hand edit) is replaced; the rest stays.
    const tail = '\n## Later notes\n\nKeep this.\n';
    fs.writeFileSync(path.join(root, 'AGENTS.md'), `${mine}\n${SECTION_BEGIN}\nold text\n${SECTION_END}\n${tail}`);
    expect(setup(root, '--agents-md').stdout).toContain('updated  AGENTS.md\n');
    expect(read(root, 'AGENTS.md')).toBe(`${mine}\n${agentsSectionText()}${tail}`);
    expect(setup(root, '--agents-md').stdout).toContain('unchanged  AGENTS.md\n');
  });

  it('refuses markers that do not pair up', () => {
    const root = freshRoot();
    fs.writeFileSync(path.join(root, 'AGENTS.md'), `# Rules\n${SECTION_BEGIN}\nhalf a section\n`);
    expectError(setup(root, '--agents-md'), 'section_markers_broken');
    expect(read(root, 'AGENTS.md')).toBe(`# Rules\n${SECTION_BEGIN}\nhalf a section\n`);
  });

  it('writes through an AGENTS.md that is a symlink', () => {
    const root = freshRoot();
    fs.writeFileSync(path.join(root, 'CLAUDE.md'), '# Shared\n');
    fs.symlinkSync('CLAUDE.md', path.join(root, 'AGENTS.md'));
    expect(setup(root, '--agents-md').status).toBe(0);
    expect(fs.lstatSync(path.join(root, 'AGENTS.md')).isSymbolicLink()).toBe(true);
    expect(read(root, 'CLAUDE.md')).toBe(`# Shared\n\n${agentsSectionText()}`);
  });
});

describe('agent-setup usage', () => {
  it('without a harness: bad_arguments listing the choices; --hook needs --claude; --block needs --hook', () => {
    const root = freshRoot();
    const none = setup(root);
    expectError(none, 'bad_arguments');
    expect(none.stderr.split('\n')[0]).toContain(
      '--claude (a skill in .claude/skills/trufflepig/; add --hook for the hint hook), --codex or --agents-md',
    );
    expectError(setup(root, '--agents-md', '--hook'), 'bad_arguments');
    expectError(setup(root, '--claude', '--block'), 'bad_arguments');
    expectError(setup(root, '--claude', 'extra'), 'bad_arguments');
    // A flag of agent-setup is an unknown option anywhere else.
    expectError(runCli(['search', 'x', '--force'], root, { lines: true }), 'bad_arguments');
    expect(fs.readdirSync(root)).toEqual(['.git']);
  });
});

describe('the instruction text', () => {
  it('is short: under 750 o200k tokens as a skill and as a section', () => {
    expect(tokens(skillText())).toBeLessThan(750);
    expect(tokens(agentsSectionText())).toBeLessThan(750);
  });

  it('every example command in it runs and finds something', () => {
    const repo = makeRepo(
      {
        'src/bucket.rs':
          '/// Buckets refill tokens over time.\npub struct TokenBucket { tokens: u32 }\nimpl TokenBucket {\n    pub fn refill_tokens(&mut self) { self.tokens = 10; }\n}\n',
        'tests/bucket_test.rs': 'use app::TokenBucket;\nfn refill_works() {}\n',
        'README.md': '# Buckets\n\nRefill tokens with TokenBucket::refill_tokens.\n',
      },
      'examples',
    );
    expect(repo.cli('index').status).toBe(0);
    const body = instructionsBody('##');
    const examples = [
      ...body.matchAll(/`((?:trufflepig )?(?:search|show|more|refs|map|ctx) [^`]+|trufflepig status)`/g),
    ]
      .map((m) => m[1])
      .filter((c) => !/\b(?:QUERY|HANDLE|CURSOR|NAME|PATH)\b/.test(c));
    expect(examples.length).toBeGreaterThanOrEqual(9);
    for (const example of examples) {
      const argv = texts(parseCommandLine(example)![0][0].words);
      const r = repo.lines(...(argv[0] === 'trufflepig' ? argv.slice(1) : argv));
      expect({ example, status: r.status, stderr: r.stderr }).toEqual({ example, status: 0, stderr: '' });
      expect({ example, found: /^[0-9a-z]{6,16}:1 |^path:|^\d+: |^state: published$/m.test(r.stdout) }).toEqual({
        example,
        found: true,
      });
    }
  });
});
