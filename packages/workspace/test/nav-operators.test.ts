// Overloaded operators as an agent asks for them: `show sym:` finds a C++ conversion operator
// and a C# operator however the query spaces it, `map` lists them, and `refs` of a defined
// operator with no named site suggests no other operator (its uses are `==`, not names).
import { mapCommand, refsCommand, showCommand } from '../src';
import { indexedRepo, json, type IndexedRepo } from './ws-helpers';

const FILES = {
  'include/handle.hpp': [
    'struct Handle {',
    '  explicit operator bool() const { return p != nullptr; }',
    '  bool operator == (const Handle& o) const { return p == o.p; }',
    '  bool operator+(const Handle& o) const;',
    '  void* p;',
    '};',
    '',
  ].join('\n'),
  'src/Money.cs': [
    'class Money {',
    '  public static Money operator +(Money a, Money b) { return a; }',
    '  public static explicit operator decimal(Money m) { return 0; }',
    '}',
    '',
  ].join('\n'),
};

describe('overloaded operators', () => {
  let repo: IndexedRepo;
  beforeAll(async () => {
    repo = await indexedRepo('tp-nav-operators-', FILES);
  });

  it('show sym: lands on conversion and symbol operators, spaced either way', async () => {
    for (const [query, line] of [
      ['sym:operator bool', 'include/handle.hpp:2  Handle::operator bool'],
      ['sym:Handle::operator ==', 'include/handle.hpp:3  Handle::operator=='],
      ['sym:Handle::operator==', 'include/handle.hpp:3  Handle::operator=='],
      ['sym:Money::operator+', 'src/Money.cs:2  Money::operator+'],
      ['sym:Money::operator decimal', 'src/Money.cs:3  Money::operator decimal'],
    ]) {
      const out = await showCommand(query, repo.at());
      expect([query, out.exitCode]).toEqual([query, 0]);
      expect(out.stdout.split('\n')[0]).toContain(line);
    }
  });

  it('map lists them by name', async () => {
    const out = await mapCommand(['include/handle.hpp'], repo.at());
    expect(out.stdout).toContain('method operator bool');
    expect(out.stdout).toContain('method operator==');
  });

  it('refs of a defined operator with no named site suggests no other name', async () => {
    const page = json(await refsCommand(['Handle::operator=='], repo.at({ format: 'json' })));
    expect(page.coverage.reference_sites).toBe(0);
    expect(page.coverage.nearest_defined).toBeUndefined();
    // A misspelt name still gets its suggestion.
    const typo = json(await refsCommand(['Handel'], repo.at({ format: 'json' })));
    expect(typo.coverage.nearest_defined).toEqual(['Handle']);
  });
});
