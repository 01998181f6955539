// Ruby through every verb (extract/lang/ruby.ts): classes and modules own their methods,
// `require_relative` and `require` make a file's names visible, a reopened class's home is
// the body holding most of it, and `lang:rb`, `.rake` files and accessors are Ruby's.
// A real repository, real tree-sitter parses.
import { mapCommand, refsCommand, searchCommand, showCommand } from '../src';
import { indexedRepo, refsSites, type IndexedRepo } from './ws-helpers';

const FILES = {
  'lib/shop.rb': [
    'require_relative "shop/cart"',
    '',
    'module Shop',
    '  def self.checkout(catalog)',
    '    cart = Shop::Cart.new(catalog)',
    '    cart.total',
    '  end',
    'end',
    '',
  ].join('\n'),
  'lib/shop/cart.rb': [
    'module Shop',
    '  class Cart',
    '    attr_reader :items',
    '',
    '    def initialize(catalog)',
    '      @catalog = catalog',
    '      @items = {}',
    '    end',
    '',
    '    def total',
    '      items.sum { |sku, n| price(sku) * n }',
    '    end',
    '',
    '    private',
    '',
    '    def price(sku)',
    '      @catalog.fetch(sku)',
    '    end',
    '  end',
    'end',
    '',
  ].join('\n'),
  // A second, small Cart elsewhere: `Shop::Cart.new` above is lib/shop/cart.rb's by its require.
  'spec/support/cart.rb': ['class Cart', '  def total = 0', 'end', ''].join('\n'),
  // A file reopening the class to add one method, sorting before lib/: the home stays lib/shop/cart.rb.
  'ext/cart_ext.rb': ['module Shop', '  class Cart', '    def discount = 0', '  end', 'end', ''].join('\n'),
  'tasks/release.rake': ['namespace :release do', '  def release_notes', '    "notes"', '  end', 'end', ''].join('\n'),
};

let repo: IndexedRepo;
const rows = (stdout: string) => stdout.trimEnd().split('\n');

beforeAll(async () => {
  repo = await indexedRepo('tp-nav-ruby-', FILES);
});

describe('Ruby', () => {
  it('map lists a class, its accessors and methods, owned by the class', async () => {
    const out = rows((await mapCommand(['lib/shop/cart.rb'], repo.at())).stdout);
    expect(out.slice(1, -1)).toEqual([
      '1 1-20 module Shop',
      '2 2-19 class Cart',
      '3 5-8 method initialize',
      '4 10-12 method total',
      '5 16-18 method price',
      '6 3 property items',
    ]);
  });

  it('refs resolves a qualified constant through require_relative, and a bare call to the own class', async () => {
    const sites = await refsSites(repo, ['Cart']);
    expect(sites.find((s) => s.path === 'lib/shop.rb')).toMatchObject({
      start_line: 5,
      resolution: 'resolved',
      definition: 'lib/shop/cart.rb:2',
    });
    const price = rows((await refsCommand(['Cart::price'], repo.at())).stdout);
    expect(price).toContainEqual(expect.stringMatching(/^\d+ 11 call in Cart::total: items\.sum/));
  });

  it('show sym: of a reopened class reads the body that holds most of it', async () => {
    const out = rows((await showCommand('sym:Cart', repo.at())).stdout);
    expect(out[0]).toMatch(/^\S+ {2}lib\/shop\/cart\.rb:2-19 {2}Shop::Cart$/);
  });

  it('lang:rb selects Ruby, .rake files included', async () => {
    const out = rows((await searchCommand(['release_notes', 'lang:rb'], repo.at())).stdout);
    expect(out[0]).toMatch(/^\S+ {2}tasks\/release\.rake:2-4 {2}release_notes$/);
    const none = rows((await searchCommand(['release_notes', 'lang:python'], repo.at())).stdout);
    expect(none[0]).not.toMatch(/release\.rake/);
  });
});

// A call on a constant is the method of the module it names (rubyConstantSite in
// navigation's refs.ts), not the file's own definition of the name nor a required file's:
// ActiveSupport's `refs constantize` gave six `Inflector.constantize(x)` calls to
// Dependencies', String's or ZeitwerkIntegration's constantize as resolved (an agent trial).
const CONSTANT_CALLS = {
  'lib/inflector.rb': [
    'module Inflector',
    '  extend self',
    '',
    '  def constantize(name)',
    '    Object.const_get(name)',
    '  end',
    'end',
    '',
  ].join('\n'),
  'lib/string_ext.rb': [
    'require_relative "inflector"',
    '',
    'class String',
    '  def constantize',
    '    Inflector.constantize(self)',
    '  end',
    '',
    '  def squish',
    '    strip',
    '  end',
    'end',
    '',
  ].join('\n'),
  'lib/notice.rb': [
    'require_relative "string_ext"',
    '',
    'class Notice',
    '  def text',
    '    <<~MSG.squish',
    '      Hello,',
    '      world.',
    '    MSG',
    '  end',
    'end',
    '',
  ].join('\n'),
  // A module named as the heredoc's tag: the heredoc's call is still no call on it.
  'lib/msg.rb': ['module MSG', '  def self.squish', '    nil', '  end', 'end', ''].join('\n'),
  'lib/deps.rb': [
    'require_relative "string_ext"',
    '',
    'module Deps',
    '  def self.constantize(name)',
    '    ::Inflector.constantize(name)',
    '  end',
    '',
    '  def self.load(path)',
    '    constantize(path)',
    '    Marshal.constantize(path)',
    '  end',
    'end',
    '',
  ].join('\n'),
};

describe('Ruby calls on a constant or a heredoc', () => {
  let calls: IndexedRepo;
  beforeAll(async () => {
    calls = await indexedRepo('tp-nav-ruby-const-', CONSTANT_CALLS);
  });

  it("refs resolves Inflector.constantize to Inflector's method, a bare call to its own class's", async () => {
    const sites = (await refsSites(calls, ['constantize'])).filter((s) => s.role === 'call');
    const at = (path: string, line: number) => sites.find((s) => s.path === path && s.start_line === line);
    // Before: resolved to String's own constantize (lib/string_ext.rb:4) and to Deps' (lib/deps.rb:4).
    expect(at('lib/string_ext.rb', 5)).toMatchObject({ resolution: 'resolved', definition: 'lib/inflector.rb:4' });
    expect(at('lib/deps.rb', 5)).toMatchObject({ resolution: 'resolved', definition: 'lib/inflector.rb:4' });
    expect(at('lib/deps.rb', 9)).toMatchObject({ resolution: 'resolved', definition: 'lib/deps.rb:4' });
    // A constant the index never defines is a library's: none of these.
    expect(at('lib/deps.rb', 10)).toMatchObject({ resolution: 'unresolved' });
  });

  // A heredoc's opener is no constant (memberQualifierText in navigation's refs.ts): ActiveSupport's
  // five `<<-MSG.squish` calls were none of `refs String::squish`, which show sym: suggests (an agent trial).
  it('refs String::squish keeps a call on a heredoc', async () => {
    const sites = await refsSites(calls, ['String::squish']);
    expect(sites.find((s) => s.path === 'lib/notice.rb')).toMatchObject({
      start_line: 5,
      role: 'call',
      resolution: 'candidate',
    });
    const onHeredoc = (await refsSites(calls, ['squish'])).find((s) => s.path === 'lib/notice.rb');
    expect(onHeredoc).toBeDefined();
    expect(onHeredoc!.definition).not.toBe('lib/msg.rb:2');
  });
});

// ActiveSupport's attribute macros, `delegate` and symbols (extract/lang/ruby.ts version 3):
// an agent trial on ActiveSupport 6.1 found `show sym:autoload_paths` answering
// `no_definition` for `mattr_accessor :autoload_paths, default: []`, `refs` missing every
// `delegate :x` and `module_function :x`, and `map` printing `def self.parse` and `def parse` alike.
const MACROS = {
  'lib/dependencies.rb': [
    'module Dependencies',
    '  mattr_accessor :autoload_paths, default: []',
    '  class_attribute :__callbacks, instance_writer: false',
    '  delegate :escape_html_entities_in_json, to: :encoding',
    '  delegate :name, to: :owner, prefix: true',
    '',
    '  def loadable(path, bases = autoload_paths)',
    '    send(:autoload_paths)',
    '  end',
    '',
    '  def html_escape(s)',
    '    s',
    '  end',
    '  module_function :html_escape',
    'end',
    '',
  ].join('\n'),
  'lib/encoder.rb': [
    'module Encoder',
    '  class << self',
    '    delegate :time_precision, :time_precision=,',
    '      :escape_html, :escape_html=,',
    "      to: :'Encoding'",
    '  end',
    'end',
    '',
  ].join('\n'),
  'lib/duration.rb': [
    'class Duration',
    '  def <=>(other)',
    '    value <=> other.value',
    '  end',
    '  alias_method :compare, :<=>',
    'end',
    '',
  ].join('\n'),
  'lib/core.rb': [
    'module Core',
    '  extend ActiveSupport::Concern',
    '',
    '  included do',
    '    class_attribute :belongs_to_required_by_default, instance_accessor: false',
    '    def persisted_check',
    '    end',
    '  end',
    '',
    '  class_methods do',
    '    def define_column_methods(*names)',
    '    end',
    '  end',
    '',
    '  def each_item(items)',
    '    items.each do',
    '      def stray',
    '      end',
    '    end',
    '  end',
    'end',
    '',
  ].join('\n'),
  'lib/zones.rb': [
    'class Time',
    '  class << self',
    '    def zone',
    '    end',
    '  end',
    '',
    '  def zone',
    '  end',
    'end',
    '',
  ].join('\n'),
  'lib/clock.rb': [
    'class Clock',
    '  class << self',
    '    def now',
    '    end',
    '  end',
    ...Array.from({ length: 12 }, (_, k) => ['', `  def tick${k}`, '    1', '  end']).flat(),
    'end',
    '',
  ].join('\n'),
  'lib/configuration_file.rb': [
    'class ConfigurationFile',
    '  def self.parse(path)',
    '    new(path).parse',
    '  end',
    '',
    '  def parse',
    '    {}',
    '  end',
    'end',
    '',
  ].join('\n'),
};

describe('Ruby attribute macros, delegate and symbols', () => {
  let macros: IndexedRepo;
  beforeAll(async () => {
    macros = await indexedRepo('tp-nav-ruby-macros-', MACROS);
  });

  it('show sym: reads an attribute declared by mattr_accessor or class_attribute, and a delegated method', async () => {
    for (const [name, line] of [
      ['autoload_paths', 2],
      ['__callbacks', 3],
      ['escape_html_entities_in_json', 4],
    ] as const) {
      const out = rows((await showCommand(`sym:${name}`, macros.at())).stdout);
      expect(out[0]).toMatch(new RegExp(`^\\S+ {2}lib/dependencies\\.rb:${line} {2}Dependencies::${name}$`));
    }
    // `prefix: true` delegates under other names (`owner_name`): no `name` is defined.
    expect((await showCommand('sym:name', macros.at())).stderr).toMatch(/no_definition/);
  });

  it("declarations inside a concern's included and class_methods blocks are the module's", async () => {
    // Rails (an agent trial): `included do class_attribute :belongs_to_required_by_default … end`
    // in core.rb declared nothing, and `show sym:` answered `no_definition`.
    for (const [name, line] of [
      ['belongs_to_required_by_default', 5],
      ['persisted_check', 6],
      ['define_column_methods', 11],
    ] as const) {
      const out = rows((await showCommand(`sym:${name}`, macros.at())).stdout);
      expect(out[0]).toMatch(new RegExp(`^\\S+ {2}lib/core\\.rb:${line}(-\\d+)? {2}Core::${name}$`));
    }
    // A def inside any other block stays the block's method's own.
    expect(rows((await showCommand('sym:stray', macros.at())).stdout)[0]).toMatch(/ {2}each_item::stray$/);
  });

  it('refs lists the declaring line and the symbols that name the method', async () => {
    const paths = await refsSites(macros, ['autoload_paths']);
    expect(paths.map((s) => [s.start_line, s.role])).toEqual(
      expect.arrayContaining([
        [2, 'declaration'],
        [7, 'reference'],
        [8, 'reference'],
      ]),
    );
    const escape = await refsSites(macros, ['html_escape']);
    expect(escape.map((s) => s.start_line).sort((a, b) => a - b)).toEqual([11, 14]);
    // A symbol may be data as well (`Set.new([:where, …])`): a candidate, never certain; the
    // bare call beside it stays resolved (a Rails trial).
    const byLine = new Map(paths.map((s) => [s.start_line, s.resolution]));
    expect([byLine.get(7), byLine.get(8)]).toEqual(['resolved', 'candidate']);
  });

  it("a delegate's names over several lines are in the module, not in the first name", async () => {
    const out = rows((await refsCommand(['escape_html'], macros.at())).stdout);
    // Before: `4 declaration in Encoder::time_precision: …`, the first delegated name's span
    // being the whole call.
    expect(out).toContainEqual(expect.stringMatching(/^\d+ 4 declaration in Encoder: :escape_html, :escape_html=,$/));
  });

  it('refs of an operator method lists its definition and symbols, and says its uses are no sites', async () => {
    const out = rows((await refsCommand(['<=>'], macros.at())).stdout);
    // Before: `0 sites in 0 files`, nothing more.
    expect(out).toContainEqual(expect.stringMatching(/^\d+ 2 declaration in Duration: def <=>\(other\)$/));
    expect(out).toContainEqual(expect.stringMatching(/^\d+ 5 reference .*alias_method :compare, :<=>$/));
    expect(out.at(-1)).toMatch(/; an operator's uses \(a <=> b\) are no sites: search "<=>" lists their lines$/);
  });

  it('map marks a method defined on self as static', async () => {
    const out = rows((await mapCommand(['lib/configuration_file.rb'], macros.at())).stdout);
    expect(out.slice(1, -1)).toEqual([
      '1 1-9 class ConfigurationFile',
      '2 2-4 static method parse',
      '3 6-8 method parse',
    ]);
    // `class << self` opens the class's own methods too (Rails' `Time.zone` beside `Time#zone`).
    const zones = rows((await mapCommand(['lib/zones.rb'], macros.at())).stdout);
    expect(zones.slice(1, -1)).toEqual(['1 1-9 class Time', '2 3-4 static method zone', '3 7-8 method zone']);
    // show sym: lists a long class's members with the same modifiers.
    const members = rows((await showCommand('sym:Clock', macros.at())).stdout).find((r) => r.startsWith('members: '));
    expect(members).toMatch(/^members: 3 static now, 7 tick0, /);
  });
});
