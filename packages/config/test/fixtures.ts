import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export function tempDir(): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-config-')));
}

/** Write `text` to `file`, creating parent directories. */
export function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

export function mkdir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  return fs.realpathSync(dir);
}

/** A minimal valid configuration with the given member paths. */
export function configText(members: Record<string, string>, extra = ''): string {
  const tables = Object.entries(members).map(([name, p]) => `[members.${name}]\npath = ${JSON.stringify(p)}\n`);
  return `[workspace]\nname = "space"\n${extra}\n${tables.join('\n')}`;
}
