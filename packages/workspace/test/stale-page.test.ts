// A page answered from an index older than the files it names says so (core/stale.ts):
// without a daemon nothing reindexes an edit, and search, map and a workspace's fused page
// printed the index's lines for an edited file with `coverage: complete` (a Ruby trial:
// `filters.rb:13-15 String::squish` two lines above the method). refs already said it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { indexCommand, mapCommand, refsCommand, searchCommand, showCommand, statusCommand } from '../src';
import { indexedRepo, json, makeSpace, opts, type IndexedRepo } from './ws-helpers';

const FILES = {
  'lib/filters.rb':
    'class String\n  def squish\n    dup.squish!\n  end\n\n  def squish!\n    strip!\n    self\n  end\nend\n',
  'lib/other.rb': 'def tidy(s)\n  s.squish\nend\n',
};
const STALE_WORDS = '1 file changed since indexing (run index)';

describe('pages of a file edited since indexing, without a daemon', () => {
  let repo: IndexedRepo;
  let file: string;
  beforeAll(async () => {
    repo = await indexedRepo('tp-stale-page-', FILES);
    file = path.join(repo.root, 'lib/filters.rb');
  });
  afterEach(() => fs.writeFileSync(file, FILES['lib/filters.rb']));

  it('an unedited tree says nothing of it', async () => {
    const page = await searchCommand(['squish'], repo.at());
    expect(page.stdout).not.toContain('changed since indexing');
    expect(json(await searchCommand(['squish'], repo.at({ format: 'json' }))).coverage.stale_files).toBeUndefined();
  });

  it('search and map count the edited file; show names the commands that read it now', async () => {
    fs.writeFileSync(file, `# one\n# two\n${FILES['lib/filters.rb']}`);
    const page = await searchCommand(['squish'], repo.at());
    const coverage = page.stdout.split('\n').find((l) => l.startsWith('coverage:'))!;
    expect(coverage).toContain(STALE_WORDS);
    expect(json(await searchCommand(['squish'], repo.at({ format: 'json' }))).coverage.stale_files).toBe(1);
    const map = await mapCommand(['lib/filters.rb'], repo.at());
    expect(map.stdout).toContain(`coverage: 3 items; ${STALE_WORDS}`);
    expect(json(await mapCommand(['lib/filters.rb'], repo.at({ format: 'json' }))).coverage.stale_files).toBe(1);
    // The unedited file's map says nothing.
    expect((await mapCommand(['lib/other.rb'], repo.at())).stdout).not.toContain('changed since indexing');
    const handle = page.stdout.split(/\s/)[0];
    const shown = await showCommand(handle, repo.at());
    expect(shown.exitCode).toBe(2);
    // Before: "show sym:String::squish file:lib/filters.rb reads the definition as it is now",
    // which fails the same way until the index is rebuilt.
    expect(shown.stderr).toContain(
      'run index, then show sym:String::squish file:lib/filters.rb reads the definition as it is now; show path:lib/filters.rb reads the file now',
    );
    expect((await refsCommand(['squish!'], repo.at())).stdout).toContain(STALE_WORDS);
  });

  it('status counts and names the files changed or gone since indexing, and forgets them after index', async () => {
    expect(json(await statusCommand(repo.at({ format: 'json' }))).changed_since_indexing).toBeUndefined();
    fs.writeFileSync(file, `# one\n${FILES['lib/filters.rb']}`);
    const other = path.join(repo.root, 'lib/other.rb');
    fs.rmSync(other);
    try {
      const status = json(await statusCommand(repo.at({ format: 'json' })));
      expect(status.changed_since_indexing).toMatchObject({ files: 2, paths: ['lib/filters.rb', 'lib/other.rb'] });
      expect((await statusCommand(repo.at())).stdout).toMatch(/changed_since_indexing.*2/);
    } finally {
      fs.writeFileSync(other, FILES['lib/other.rb']);
    }
    fs.writeFileSync(file, FILES['lib/filters.rb']);
    expect((await indexCommand(repo.at())).exitCode).toBe(0);
    expect(json(await statusCommand(repo.at({ format: 'json' }))).changed_since_indexing).toBeUndefined();
  });

  it('after index the page is current again', async () => {
    fs.writeFileSync(file, `# one\n# two\n${FILES['lib/filters.rb']}`);
    expect((await indexCommand(repo.at())).exitCode).toBe(0);
    const page = json(await searchCommand(['squish'], repo.at({ format: 'json' })));
    expect(page.coverage.stale_files).toBeUndefined();
    expect(page.hits[0]).toMatchObject({ path: 'lib/filters.rb', start_line: 4, end_line: 6 });
  });
});

describe("a workspace's fused page", () => {
  it('names the member whose file changed since indexing', async () => {
    const space = makeSpace('stale');
    const at = opts(space, space.base, { workspace: space.config, format: 'lines' });
    expect((await indexCommand(at)).exitCode).toBe(0);
    const story = path.join(space.lib, 'src/story.ts');
    fs.writeFileSync(story, `// moved down\n${fs.readFileSync(story, 'utf8')}`);
    const page = await searchCommand(['StoryTeller'], at);
    const coverage = page.stdout.split('\n').find((l) => l.startsWith('coverage:'))!;
    expect(coverage).toMatch(/lib complete \d+ hits? \(1 file changed since indexing \(run index\)\)/);
    expect(coverage).not.toMatch(/app [^;]*changed since indexing/);
    const members = json(await searchCommand(['StoryTeller'], { ...at, format: 'json' })).coverage.members;
    expect(members.lib.stale_files).toBe(1);
    expect(members.app.stale_files).toBeUndefined();
  });
});
