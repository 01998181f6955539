// A compound identifier's search shows every line of a hit's file that spells it (up to
// the evidence cap), as a "literal" search does (an agent trial on Django: `search
// DATA_UPLOAD_MAX_MEMORY_SIZE` showed one line of multipartparser.py and never the `raise`
// that enforces the setting). A plain word keeps its one best line. Further matches in the
// definition the hit names carry no `in NAME` label. Real repository, real parses.
import { searchCommand } from '../src';
import { indexedRepo, type IndexedRepo } from './ws-helpers';

const PARSER = [
  'from django.conf import settings',
  '',
  '',
  'class MultiPartParser:',
  '    def parse(self, num_bytes_read):',
  '        # the session of this upload',
  '        if settings.DATA_UPLOAD_MAX_MEMORY_SIZE is not None:',
  '            read_size = settings.DATA_UPLOAD_MAX_MEMORY_SIZE - num_bytes_read',
  ...Array.from({ length: 24 }, (_, i) => `        num_bytes_read += ${i}  # session chunk ${i}`),
  '        if num_bytes_read > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:',
  "            raise ValueError('too big')",
  '        return read_size',
  '',
].join('\n');

describe('search of a compound identifier', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-identifier-lines-', {
      'http/multipartparser.py': PARSER,
      'conf/global_settings.py': 'DATA_UPLOAD_MAX_MEMORY_SIZE = 2621440\n',
      'http/tokens.py': 'def refillTokens(n):\n    return n\n',
    });
  });

  it('shows every line of the file that spells it, without repeating the definition the hit names', async () => {
    const out = (await searchCommand(['DATA_UPLOAD_MAX_MEMORY_SIZE'], repo.at())).stdout.split('\n');
    const at = out.findIndex((l) => / {2}http\/multipartparser\.py:/.test(l));
    expect(out[at]).toMatch(/ {2}MultiPartParser::parse$|in MultiPartParser::parse$/);
    const evidence = out.slice(at + 1).filter((l, i, all) => all.slice(0, i + 1).every((x) => x.startsWith('  ')));
    expect(evidence.map((l) => l.trim().split(':')[0])).toEqual(['7', '8', '33']);
    expect(evidence.some((l) => / in /.test(l.split(':')[0]))).toBe(false);
  });

  it('keeps one best line for a plain word', async () => {
    const out = (await searchCommand(['session'], repo.at())).stdout.split('\n');
    const at = out.findIndex((l) => / {2}http\/multipartparser\.py:/.test(l));
    expect(out[at + 1]).toMatch(/^ {2}\d+: /);
    expect(out[at + 2] ?? '').not.toMatch(/^ {2}\d+/);
  });

  it('shows the lines its words pick in a file that holds it only inside a longer name', async () => {
    const out = (await searchCommand(['refill_tokens'], repo.at())).stdout.split('\n');
    const at = out.findIndex((l) => / {2}http\/tokens\.py:/.test(l));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(out[at + 1]).toBe('  1: def refillTokens(n):');
  });
});
