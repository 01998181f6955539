// How a command written for someone else to run (a hook in settings.json, a suggested
// search) calls this Trufflepig: `trufflepig` when that name is on PATH, else node and
// this build's main.js by absolute path.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { shellQuote } from './shell-quote';

function onPath(name: string, env: NodeJS.ProcessEnv): boolean {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    try {
      fs.accessSync(path.join(dir, name), fs.constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

/** `trufflepig`, or `/usr/bin/node /path/to/dist/main.js` (quoted for a POSIX shell) when it is not on PATH. */
export function invocation(env: NodeJS.ProcessEnv = process.env): string {
  if (onPath('trufflepig', env)) return 'trufflepig';
  const main = path.join(__dirname, 'main.js');
  return `${shellQuote(process.execPath)} ${shellQuote(main)}`;
}
