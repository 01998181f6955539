// ctx of a class lists the classes naming it as a base (navigation/src/implementations.ts
// subclassesOf): Python, Ruby, C++, C#, Java, TypeScript with JavaScript, PHP. Real
// repositories, real tree-sitter parses.
import { ctxCommand, refsCommand, searchCommand } from '../src';
import { ctxLinesOf, ctxRows, indexedRepo, type IndexedRepo } from './ws-helpers';

const FILES = {
  'py/app/base.py': 'class Handler:\n    def handle(self):\n        pass\n',
  'py/app/web.py': [
    'import typing as t',
    'from .base import Handler',
    'from . import base',
    '',
    'class Web(Handler, metaclass=type):',
    '    pass',
    '',
    'class Qualified(base.Handler):',
    '    pass',
    '',
    'class Generic(t.Generic[t.T], Handler):',
    '    pass',
    '',
    '# Holds a Handler, derives from nothing.',
    'class Holder:',
    '    def make(self):',
    '        return Handler()',
    '',
  ].join('\n'),
  'py/app/aliased.py': 'from .base import Handler as _BaseHandler\n\nclass Aliased(_BaseHandler):\n    pass\n',
  'rb/lib/model.rb':
    'class Model\nend\n\nclass User < Model\nend\n\nmodule Admin\n  class Staff < ::Model\n  end\nend\n',
  'cpp/shape.hpp': [
    'class Shape { public: virtual ~Shape(); };',
    'template <typename T> class Box final : public Shape, private Holder<T> { };',
    'struct Dot : Shape { };',
    'namespace ns { class Other : public geo::Shape { }; }',
    '',
  ].join('\n'),
  'cs/Animals.cs':
    'namespace Zoo;\n\npublic class Animal { }\n\npublic class Dog : Animal, IPet { }\n\npublic class Cage<T> : Pen where T : Animal { }\n',
  'java/src/Widget.java': 'package ui;\n\npublic class Widget {\n}\n',
  'java/src/Button.java': 'package ui;\n\npublic class Button extends Widget implements Clickable {\n}\n',
  'java/src/Label.java': 'package ui;\n\npublic class Label implements Widget {\n}\n',
  'ts/src/store.ts': 'export class Store<T> {\n  items: T[] = [];\n}\n',
  'ts/src/memory.ts':
    "import { Store } from './store';\n\nexport class MemoryStore<T> extends Store<Map<string, T>> {}\n",
  'ts/src/legacy.js':
    "const { Store } = require('./store');\n\nclass LegacyStore extends Store {}\nmodule.exports = LegacyStore;\n",
  'php/src/Model.php': '<?php\nnamespace App;\n\nclass Model\n{\n}\n',
  'php/src/Post.php':
    '<?php\nnamespace App;\n\nfinal class Post extends \\App\\Model implements \\JsonSerializable\n{\n}\n',
  // Class expressions (ESLint's `module.exports = class Cursor {`) are classes too.
  'js/lib/cursor.js': 'module.exports = class Cursor {\n  next() {}\n};\n',
  'js/lib/forward.js':
    "const Cursor = require('./cursor');\n\nmodule.exports = class ForwardCursor extends Cursor {\n  next() {}\n};\n",
  'js/lib/referencer.js':
    "const esrecurse = require('esrecurse');\n\nclass Referencer extends esrecurse.Visitor {}\nmodule.exports = Referencer;\n",
  'py3/many.py': [
    'class Root:',
    '    pass',
    '',
    ...Array.from({ length: 12 }, (_, i) => `class Leaf${i}(Root):\n    pass\n`),
  ].join('\n'),
  'exc/errors.py': [
    'from urllib3.exceptions import HTTPError as BaseHTTPError',
    'from http.client import IncompleteRead as httplib_IncompleteRead',
    '',
    'class HTTPError(Exception):',
    '    pass',
    '',
    'class RequestException(HTTPError):',
    '    pass',
    '',
    'class IncompleteRead(HTTPError):',
    '    pass',
    '',
    'class ContentDecodingError(RequestException, BaseHTTPError):',
    '    pass',
    '',
    'class InvalidChunkLength(httplib_IncompleteRead):',
    '    pass',
    '',
  ].join('\n'),
  // A second class named Handler: a head naming Handler elsewhere may mean either.
  'py2/other.py': 'class Handler:\n    pass\n\nclass Tail(Handler):\n    pass\n',
};

let repo: IndexedRepo;
beforeAll(async () => {
  repo = await indexedRepo('tp-nav-subclasses-', FILES);
});

/** The subclass rows of `ctx` of the definition `sym:NAME file:FILE` lands on. */
async function subclassesOf(name: string, file: string): Promise<string[]> {
  return ctxRows(await ctxLinesOf(repo, [`sym:${name}`, `file:${file}`]), 'subclass');
}

describe('ctx lists the classes deriving from a class', () => {
  it('Python: bases by name, qualified, after a generic, through an import alias; a class only using it is none; namesakes make candidates', async () => {
    // An import's trail says which Handler a head means, and so does the module a
    // qualifier imports (`base.Handler` after `from . import base`). `Tail(Handler)` means
    // its own file's.
    expect(await subclassesOf('Handler', 'py/app/')).toEqual([
      'py/app/aliased.py:3 class Aliased',
      'py/app/web.py:5 class Web',
      'py/app/web.py:8 class Qualified',
      'py/app/web.py:11 class Generic',
    ]);
    // In its own file a head naming the class means it.
    expect(await subclassesOf('Handler', 'py2/')).toEqual(['py2/other.py:4 class Tail']);
  });

  it('Python: a base imported under another name from outside the root is no namesake of the root', async () => {
    // requests' `from urllib3.exceptions import HTTPError as BaseHTTPError` and urllib3's
    // `... import IncompleteRead as httplib_IncompleteRead` (a workspace trial): each base
    // had been the root's own class of the imported name.
    const lines = await ctxLinesOf(repo, ['sym:ContentDecodingError']);
    expect(lines).toContain('unresolved bases: BaseHTTPError');
    expect(ctxRows(lines, 'base')).toEqual(['exc/errors.py:7 class RequestException']);
    expect(ctxRows(await ctxLinesOf(repo, ['sym:InvalidChunkLength']), 'base')).toEqual([]);
    expect(await subclassesOf('HTTPError', 'exc/')).toEqual([
      'exc/errors.py:7 class RequestException',
      'exc/errors.py:10 class IncompleteRead',
    ]);
    expect(await subclassesOf('IncompleteRead', 'exc/')).toEqual([]);
  });

  it('Ruby, C++ and C#: `< Base`, access specifiers and templates, structs, a constraint is no base', async () => {
    expect(await subclassesOf('Model', 'rb/')).toEqual([
      'rb/lib/model.rb:4 class User',
      'rb/lib/model.rb:8 class Admin::Staff',
    ]);
    expect(await subclassesOf('Shape', 'cpp/')).toEqual([
      'cpp/shape.hpp:2 class Box',
      'cpp/shape.hpp:3 struct Dot',
      'cpp/shape.hpp:4 class ns::Other',
    ]);
    expect(await subclassesOf('Animal', 'cs/')).toEqual(['cs/Animals.cs:5 class Dog']);
  });

  it('a class expression is a class: its subclasses, and its bases, indexed or named as spelled', async () => {
    expect(await subclassesOf('Cursor', 'js/')).toEqual(['js/lib/forward.js:3 class ForwardCursor']);
    expect(ctxRows(await ctxLinesOf(repo, ['sym:ForwardCursor']), 'base')).toEqual(['js/lib/cursor.js:1 class Cursor']);
    // A dependency's base: named, not dropped (an agent trial found no word of what Referencer extends).
    expect(await ctxLinesOf(repo, ['sym:Referencer'])).toContain('unresolved bases: esrecurse.Visitor');
  });

  it('subclasses past the list say where the rest are', async () => {
    const lines = await ctxLinesOf(repo, ['sym:Root']);
    expect(ctxRows(lines, 'subclass')).toHaveLength(10);
    expect(lines).toContain('subclasses: more than listed (refs Root lists every use)');
    // -n sets the rows per list (an agent trial's `ctx -n 50 -b 3000` still listed 10 of 16).
    const page = (await searchCommand(['sym:Root'], repo.at({ format: 'lines' }))).stdout;
    const handle = page.split('\n')[0].split(/ {2}/)[0];
    const wide = (await ctxCommand(handle, repo.at({ format: 'lines', limit: 20, budget: 3000 }))).stdout.split('\n');
    expect(ctxRows(wide, 'subclass')).toHaveLength(12);
    expect(wide.some((l) => l.startsWith('subclasses: more than listed'))).toBe(false);
    const narrow = (await ctxCommand(handle, repo.at({ format: 'lines', limit: 3 }))).stdout.split('\n');
    expect(ctxRows(narrow, 'subclass')).toHaveLength(3);
  });

  it('Java, TypeScript with JavaScript, PHP: extends clauses, not implements', async () => {
    expect(await subclassesOf('Widget', 'java/')).toEqual(['java/src/Button.java:3 class Button']);
    expect(await subclassesOf('Store', 'ts/')).toEqual([
      'ts/src/legacy.js:3 class LegacyStore',
      'ts/src/memory.ts:3 class MemoryStore',
    ]);
    expect(await subclassesOf('Model', 'php/')).toEqual(['php/src/Post.php:4 class Post']);
  });
});

describe('TypeScript interfaces extend, and classes implement classes', () => {
  // rxjs (an agent trial): `ctx` of SchedulerAction named no base, of UnaryFunction no
  // interface extending it, of the class SubscriptionLoggable none of the classes
  // implementing it.
  let ts: IndexedRepo;
  beforeAll(async () => {
    ts = await indexedRepo('tp-nav-ts-heads-', {
      'src/Subscription.ts': 'export class Subscription {\n  unsubscribe(): void {}\n}\n',
      'src/types.ts': [
        "import { Subscription } from './Subscription';",
        'export interface UnaryFunction<T, R> {',
        '  (source: T): R;',
        '}',
        'export interface OperatorFunction<T, R> extends UnaryFunction<T[], R[]> {}',
        'export interface SchedulerAction<T> extends Subscription {',
        '  schedule(state?: T): Subscription;',
        '}',
        '',
      ].join('\n'),
      'src/Loggable.ts': 'export class Loggable {\n  logged: number[] = [];\n}\n',
      'src/Hot.ts': [
        "import { Loggable } from './Loggable';",
        "import { Subscription } from './Subscription';",
        'export class Hot extends Subscription implements Loggable {',
        '  logged: number[] = [];',
        '}',
        '',
      ].join('\n'),
    });
  });
  const rowsOf = async (name: string, label: string) => ctxRows(await ctxLinesOf(ts, [`sym:${name}`]), label);

  it("an interface's base and the interfaces extending it", async () => {
    expect(await rowsOf('SchedulerAction', 'base')).toEqual(['src/Subscription.ts:1 class Subscription']);
    expect(await rowsOf('UnaryFunction', 'subclass')).toEqual(['src/types.ts:5 interface OperatorFunction']);
    expect(await rowsOf('OperatorFunction', 'base')).toEqual(['src/types.ts:2 interface UnaryFunction']);
  });

  it('a class implementing a class', async () => {
    expect(await rowsOf('Loggable', 'implementation')).toEqual(['src/Hot.ts:3 class Hot']);
    expect(await rowsOf('Subscription', 'subclass')).toEqual(['src/Hot.ts:3 class Hot']);
  });

  it("a class's bases hold what it implements, after what it extends", async () => {
    expect(await rowsOf('Hot', 'base')).toEqual([
      'src/Subscription.ts:1 class Subscription',
      'src/Loggable.ts:1 class Loggable',
    ]);
  });
});

describe('Ruby: a base spelled in a scope, and mixins', () => {
  // Rails (an agent trial): `ctx sym:ActiveRecord::Base` listed `< ActiveJob::Base`,
  // `< AbstractController::Base` and a generator's `< Base` as candidate subclasses, its two
  // real ones as candidates too, and none of its 50 included and extended modules.
  let rb: IndexedRepo;
  beforeAll(async () => {
    rb = await indexedRepo('tp-nav-rb-scopes-', {
      'lib/record/base.rb': [
        'module Record',
        '  class Base',
        '    include Record::Persistence',
        '    extend Naming',
        '',
        '    class Inner',
        '      include Hidden',
        '    end',
        '',
        '    def save',
        '      persist',
        '    end',
        '  end',
        'end',
        '',
      ].join('\n'),
      'lib/record/persistence.rb': 'module Record\n  module Persistence\n    def persist\n    end\n  end\nend\n',
      'lib/naming.rb': 'module Naming\nend\n',
      'lib/hidden.rb': 'module Hidden\nend\n',
      'lib/job/base.rb': 'module Job\n  class Base\n  end\nend\n',
      'lib/models.rb': [
        'class Post < Record::Base',
        'end',
        '',
        'class Mailer < Job::Base',
        'end',
        '',
        'module Record',
        '  class Migration < Base',
        '  end',
        'end',
        '',
        'module Job',
        '  class Cleanup < Base',
        '  end',
        'end',
        '',
      ].join('\n'),
    });
  });

  it("a qualified base is its owner's class; a bare one is its own scope's", async () => {
    const lines = await ctxLinesOf(rb, ['sym:Base', 'file:lib/record/']);
    expect(ctxRows(lines, 'subclass')).toEqual([
      'lib/models.rb:1 class Post',
      'lib/models.rb:8 class Record::Migration',
    ]);
    const job = await ctxLinesOf(rb, ['sym:Base', 'file:lib/job/']);
    expect(ctxRows(job, 'subclass')).toEqual(['lib/models.rb:4 class Mailer', 'lib/models.rb:13 class Job::Cleanup']);
  });

  it("include, extend and prepend at the class body's own level stand with its bases", async () => {
    const lines = await ctxLinesOf(rb, ['sym:Base', 'file:lib/record/']);
    expect(ctxRows(lines, 'base')).toEqual([
      'lib/record/persistence.rb:2 module Record::Persistence',
      'lib/naming.rb:1 module Naming',
    ]);
    // And a module's are the classes mixing it in; a nested class's include is its own.
    expect(ctxRows(await ctxLinesOf(rb, ['sym:Persistence']), 'subclass')).toEqual([
      'lib/record/base.rb:2 class Record::Base',
    ]);
    expect(ctxRows(await ctxLinesOf(rb, ['sym:Hidden']), 'subclass')).toEqual([
      'lib/record/base.rb:6 class Base::Inner',
    ]);
  });
});

describe("a PHP class's interfaces and traits", () => {
  // Laravel (an agent trial): `ctx sym:Model` named none of its 8 interfaces and 10 traits,
  // and `$this->fireModelEvent()` inside it was a candidate of its trait HasEvents's method.
  let php: IndexedRepo;
  beforeAll(async () => {
    php = await indexedRepo('tp-nav-php-traits-', {
      'src/Arrayable.php': '<?php\nnamespace App;\n\ninterface Arrayable\n{\n    public function toArray();\n}\n',
      'src/HasEvents.php': [
        '<?php',
        'namespace App;',
        '',
        'trait HasEvents',
        '{',
        '    protected function fireModelEvent($event)',
        '    {',
        '        return true;',
        '    }',
        '}',
        '',
      ].join('\n'),
      'src/Model.php': [
        '<?php',
        'namespace App;',
        '',
        'abstract class Model implements Arrayable, \\JsonSerializable',
        '{',
        '    /** The events. */',
        '    use HasEvents;',
        '',
        '    public function save()',
        '    {',
        "        return $this->fireModelEvent('saving');",
        '    }',
        '}',
        '',
      ].join('\n'),
    });
  });

  it("a trait's users are listed by ctx of the trait", async () => {
    expect(ctxRows(await ctxLinesOf(php, ['sym:HasEvents']), 'subclass')).toEqual(['src/Model.php:4 class Model']);
  });

  it('stand with its bases; an interface outside the index is an unresolved base', async () => {
    const lines = await ctxLinesOf(php, ['sym:Model']);
    expect(ctxRows(lines, 'base')).toEqual([
      'src/Arrayable.php:4 interface Arrayable',
      'src/HasEvents.php:4 trait HasEvents',
    ]);
    expect(lines.find((l) => l.startsWith('unresolved bases:'))).toBe('unresolved bases: \\JsonSerializable');
  });

  it("make a call through $this of the trait's method resolved", async () => {
    const out = (await refsCommand(['HasEvents::fireModelEvent'], php.at())).stdout.trimEnd().split('\n');
    expect(out.find((r) => / 11 /.test(r))).toMatch(/^\d+ 11 call in Model::save: return \$this->fireModelEvent/);
  });
});

describe('a base qualified by a module', () => {
  // Twisted (an agent trial): `class SSHFactory(protocol.Factory)` after `from
  // twisted.internet import protocol` had a test's nested `FakeTransport::Factory` as its
  // base, a candidate, and that class ten unrelated subclasses.
  let py: IndexedRepo;
  beforeAll(async () => {
    py = await indexedRepo('tp-nav-qualified-base-', {
      'tw/__init__.py': '',
      'tw/internet/__init__.py': '',
      'tw/internet/protocol.py': 'class Factory:\n    def build(self):\n        return 0\n',
      'tw/conch/__init__.py': '',
      'tw/conch/factory.py': 'from tw.internet import protocol\n\n\nclass SSHFactory(protocol.Factory):\n    pass\n',
      'tw/conch/test_auth.py': 'class FakeTransport:\n    class Factory:\n        pass\n',
      'tw/internet/servers.py':
        'from tw.internet.protocol import Factory\n\n\nclass ServerFactory(Factory):\n    pass\n',
      'tw/mail/__init__.py': '',
      'tw/mail/smtp.py': [
        'from tw.internet import servers',
        '',
        '',
        'class SMTPFactory(servers.ServerFactory):',
        '    def build(self):',
        '        return servers.ServerFactory.build(self)',
        '',
      ].join('\n'),
    });
  });

  it("a call through a class's name is that class's method, or its nearest base's", async () => {
    // Twisted: `protocol.ServerFactory.buildProtocol(self, addr)` inside SMTPFactory's own
    // buildProtocol had been its own callee.
    expect(ctxRows(await ctxLinesOf(py, ['sym:SMTPFactory::build']), 'callee')).toEqual([
      'tw/internet/protocol.py:2 method Factory::build',
    ]);
  });

  it('is the class of the module the qualifier imports, resolved', async () => {
    expect(ctxRows(await ctxLinesOf(py, ['sym:SSHFactory']), 'base')).toEqual([
      'tw/internet/protocol.py:1 class Factory',
    ]);
    expect(ctxRows(await ctxLinesOf(py, ['sym:FakeTransport::Factory']), 'subclass')).toEqual([]);
  });
});

describe('zope.interface implementations', () => {
  // Twisted (an agent trial): `ctx sym:IProtocol` listed none of the classes declaring
  // `@implementer(IProtocol)`.
  let py: IndexedRepo;
  beforeAll(async () => {
    py = await indexedRepo('tp-nav-zope-', {
      'pkg/__init__.py': '',
      'pkg/ifaces.py': [
        'from zope.interface import Interface',
        '',
        'class IThing(Interface):',
        '    def run():',
        '        pass',
        '',
        'class ISub(IThing):',
        '    pass',
        '',
      ].join('\n'),
      'pkg/impl.py': [
        'from zope.interface import implementer',
        'from pkg import ifaces',
        'from pkg.ifaces import IThing, ISub',
        '',
        '@implementer(IThing)',
        'class A:',
        '    pass',
        '',
        '@implementer(',
        '    ifaces.IThing,',
        '    ISub,',
        ')',
        'class B:',
        '    pass',
        '',
        'class C:',
        '    thing = IThing',
        '',
        '@implementer(ISub)',
        'class D:',
        '    pass',
        '',
      ].join('\n'),
    });
  });

  it('are the classes whose @implementer names the interface or one extending it', async () => {
    expect(ctxRows(await ctxLinesOf(py, ['sym:IThing']), 'implementation')).toEqual([
      'pkg/impl.py:6 class A',
      'pkg/impl.py:13 class B',
      'pkg/impl.py:20 class D',
    ]);
    expect(ctxRows(await ctxLinesOf(py, ['sym:ISub']), 'implementation')).toEqual([
      'pkg/impl.py:13 class B',
      'pkg/impl.py:20 class D',
    ]);
  });
});
