import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { indexCommand, searchCommand } from '../src';
import { json, makeRepo, opts, type Space } from './ws-helpers';

// The member-tail rule (docs/workspace.md, "Fused pages"): a member whose files sit high in
// many lanes takes most of the page, but never pushes another member's best file behind
// its own fourth one.
describe('workspace pages: the member-tail rule', () => {
  let space: Space;

  beforeAll(async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-space-tail-')));
    // `strong`: eight files named after the query, each holding its phrase and every word.
    const strong: Record<string, string> = {};
    for (let i = 0; i < 8; i++) {
      strong[`src/retry_backoff_${i}.rs`] =
        `/// Retry backoff delay, variant ${i}.\npub fn retry_backoff_delay_${i}(attempt: u32) -> u64 {\n    // retry backoff delay grows with each attempt\n    let retry = attempt as u64;\n    let backoff = 2u64.pow(attempt);\n    let delay = retry * backoff;\n    delay\n}\n`;
    }
    // `weak`: one file whose only evidence is one query word in a comment.
    const weak = {
      'src/jobs.ts':
        'export function runJob(job: () => void): void {\n  // no retry here: a job runs once\n  job();\n}\n',
      'src/other.ts': 'export const answer = 42;\n',
    };
    const strongRoot = makeRepo(path.join(base, 'strong'), strong);
    const weakRoot = makeRepo(path.join(base, 'weak'), weak);
    const config = path.join(base, 'trufflepig.workspace.toml');
    fs.writeFileSync(
      config,
      '[workspace]\nname = "tail"\n\n[members.strong]\npath = "strong"\n\n[members.weak]\npath = "weak"\n',
    );
    const env = {
      ...process.env,
      XDG_CACHE_HOME: path.join(base, '.cache'),
      XDG_CONFIG_HOME: path.join(base, '.config'),
      HOME: base,
    };
    space = { base, app: strongRoot, lib: weakRoot, config, env };
    expect((await indexCommand(opts(space, base))).exitCode).toBe(0);
  });

  it("places the weak member's best file before the strong member's fourth file", async () => {
    const page = json(await searchCommand(['retry', 'backoff', 'delay'], opts(space, space.base, { budget: 5000 })));
    const order = page.hits.map((h: { member: string; path: string }) => `${h.member}/${h.path}`);
    expect(order.filter((p: string) => p.startsWith('strong/'))).toHaveLength(8);
    expect(order.indexOf('weak/src/jobs.ts')).toBe(3);
    expect(order.slice(0, 3).every((p: string) => p.startsWith('strong/'))).toBe(true);
  });
});
