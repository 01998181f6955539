'use strict';
// Install cost of each engine: `npm install PKG@VERSION` into an empty project, timed, and
// whether a native addon was compiled. npm's cache is warm after this package's own
// `npm install`, so the times are mostly unpacking and (for better-sqlite3) compiling.
const fs = require('fs');
const path = require('path');
const { timedRun, run } = require('../../lib/proc');
const { walkFiles } = require('../../lib/corpus');

const ENGINES = ['sql.js', 'node-sqlite3-wasm', 'better-sqlite3'].map((pkg) => ({
  pkg,
  version: () => installedVersion(pkg),
}));

/** The installed version (sql.js's exports map hides its package.json from require). */
function installedVersion(pkg) {
  let dir = path.dirname(require.resolve(pkg));
  while (
    !fs.existsSync(path.join(dir, 'package.json')) ||
    JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name !== pkg
  )
    dir = path.dirname(dir);
  return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
}

/** The native addons (.node files) under dir. */
const walk = (dir) => walkFiles(dir, { filter: (name) => name.endsWith('.node') });

/** `du -sb`: apparent bytes, directories included, each hard-linked file once. */
const duBytes = (dir) => Number(run('du', ['-sb', dir]).split('\t')[0]);

function measureInstalls(work) {
  const out = [];
  for (const e of ENGINES) {
    const version = e.version();
    const dir = path.join(work, `install-${e.pkg}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'install-probe', private: true, version: '0.0.0' }),
    );
    console.error(`install cost: npm install ${e.pkg}@${version}...`);
    const r = timedRun('npm', ['install', '--no-audit', '--no-fund', `${e.pkg}@${version}`], { cwd: dir });
    const seconds = r.seconds;
    const mod = path.join(dir, 'node_modules', e.pkg);
    const addons = fs.existsSync(mod) ? walk(mod) : [];
    const compiled = addons.some((a) => a.includes(`${path.sep}build${path.sep}Release${path.sep}`));
    out.push({
      pkg: e.pkg,
      version,
      ok: r.status === 0,
      seconds,
      native: addons.length > 0,
      compiled,
      bytes: fs.existsSync(mod) ? duBytes(path.join(dir, 'node_modules')) : 0,
      tail: r.status === 0 ? '' : (r.stderr || '').slice(-500),
    });
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

module.exports = { measureInstalls };
