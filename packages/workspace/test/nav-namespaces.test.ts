// Imports and unimported names in PHP and Java resolve through the namespace a file declares
// when paths do not spell it (Composer's PSR-4 maps `App\Console\` to `src/`; a tree rooted
// inside a Java source set). An agent trial on Symfony Console found 40 of 44 uses of
// `InputInterface` unresolved, and on the JDK's java.util every `resize()` inside HashMap a
// candidate. Real repositories, real tree-sitter parses (PHP, Java).
import { refsCommand } from '../src';
import { indexedRepo, type IndexedRepo } from './ws-helpers';

const PHP = {
  'composer.json': '{"autoload": {"psr-4": {"App\\\\Console\\\\": "src/"}}}\n',
  'src/Input/InputInterface.php': [
    '<?php',
    'namespace App\\Console\\Input;',
    'interface InputInterface',
    '{',
    '    public function getFirstArgument(): ?string;',
    '}',
    '',
  ].join('\n'),
  'src/Command.php': [
    '<?php',
    'namespace App\\Console;',
    'class Command',
    '{',
    '    public function run(): int',
    '    {',
    '        return 0;',
    '    }',
    '}',
    '',
  ].join('\n'),
  'src/Application.php': [
    '<?php',
    'namespace App\\Console;',
    'use App\\Console\\Input\\InputInterface;',
    'class Application',
    '{',
    '    public function doRun(InputInterface $input): int',
    '    {',
    '        $command = new Command();',
    '        return $command->run();',
    '    }',
    '}',
    '',
  ].join('\n'),
  'src/Contracts/Auth/Factory.php': [
    '<?php',
    'namespace App\\Console\\Contracts\\Auth;',
    'interface Factory',
    '{',
    '    public function guard($name = null);',
    '}',
    '',
  ].join('\n'),
  'src/Auth/Middleware/Authenticate.php': [
    '<?php',
    'namespace App\\Console\\Auth\\Middleware;',
    'use App\\Console\\Contracts\\Auth\\Factory as Auth;',
    'class Authenticate',
    '{',
    '    public function __construct(Auth $auth)',
    '    {',
    '    }',
    '}',
    '',
  ].join('\n'),
};

const JAVA = {
  'RandomAccess.java': ['package java.util;', '', 'public interface RandomAccess {', '}', ''].join('\n'),
  'ArrayList.java': [
    'package java.util;',
    '',
    'public class ArrayList implements RandomAccess {',
    '    private int size;',
    '    void grow() {',
    '        size = size * 2;',
    '    }',
    '    void add(int x) {',
    '        grow();',
    '    }',
    '}',
    '',
  ].join('\n'),
  'concurrent/CopyOnWriteArrayList.java': [
    'package java.util.concurrent;',
    '',
    'import java.util.RandomAccess;',
    '',
    'public class CopyOnWriteArrayList implements RandomAccess {',
    '}',
    '',
  ].join('\n'),
};

let php: IndexedRepo;
let java: IndexedRepo;
const rows = (stdout: string) => stdout.trimEnd().split('\n');

beforeAll(async () => {
  php = await indexedRepo('tp-nav-ns-php-', PHP);
  java = await indexedRepo('tp-nav-ns-java-', JAVA);
});

describe('PHP namespaces', () => {
  it('resolves a use of a class whose path does not spell its namespace', async () => {
    const out = rows((await refsCommand(['InputInterface'], php.at())).stdout);
    expect(out[0]).toMatch(/^refs InputInterface → src\/Input\/InputInterface\.php:3 /);
    // A row resolved to the header's definition names no other place and says no doubt.
    expect(out.find((r) => / 3 import/.test(r))).toMatch(/^\d+ 3 import: use /);
    expect(out.find((r) => / 6 /.test(r))).toMatch(/^\d+ 6 [a-z]+ in Application::doRun: /);
    expect(out[out.length - 1]).toMatch(/\(3 resolved, 0 candidate, 0 unresolved\)$/);
  });

  it('resolves a class of the same namespace, which needs no use', async () => {
    const out = rows((await refsCommand(['Command'], php.at())).stdout);
    expect(out[0]).toMatch(/^refs Command → src\/Command\.php:3 /);
    expect(out.find((r) => / 8 /.test(r))).toMatch(/^\d+ 8 call in Application::doRun: \$command = new Command\(\);$/);
    expect(out[out.length - 1]).toMatch(/ 0 candidate, 0 unresolved\)$/);
  });

  it("never reads a namespace declaration's segment as a use of an import alias", async () => {
    // Laravel's `namespace Illuminate\Auth\Middleware;` above `use …\Factory as Auth;`: its
    // `Auth` segment was a resolved reference of Factory in `refs Factory` (a Laravel trial).
    const out = rows((await refsCommand(['Factory'], php.at())).stdout);
    expect(out[0]).toMatch(/^refs Factory → src\/Contracts\/Auth\/Factory\.php:3 /);
    expect(out.some((r) => r.includes('namespace '))).toBe(false);
    expect(out.find((r) => / 3 import/.test(r))).toMatch(/^\d+ 3 import: use /);
    expect(out.find((r) => / 6 /.test(r))).toMatch(/^\d+ 6 [a-z]+ in Authenticate::__construct: /);
  });
});

describe('Java packages', () => {
  it('resolves an import and a same-package name when paths do not spell the package', async () => {
    const out = rows((await refsCommand(['RandomAccess'], java.at())).stdout);
    expect(out[0]).toMatch(/^refs RandomAccess → RandomAccess\.java:3 /);
    expect(out.find((r) => r.includes('import java.util.RandomAccess'))).toMatch(/^\d+ 3 import: /);
    expect(out.find((r) => r.includes('class ArrayList implements'))).toMatch(/^\d+ 3 [a-z]+ in ArrayList: /);
    expect(out[out.length - 1]).toMatch(/ 0 candidate, 0 unresolved\)$/);
  });

  it("resolves a bare call inside a class to that class's own method", async () => {
    const out = rows((await refsCommand(['ArrayList::grow'], java.at())).stdout);
    expect(out.find((r) => / 9 call/.test(r))).toMatch(/^\d+ 9 call in ArrayList::add: grow\(\);$/);
  });
});
