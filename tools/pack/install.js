#!/usr/bin/env node
'use strict';
// Installs the CLI on PATH the way a registry install would: packs `trufflepig` and the
// @trufflepig/* packages it uses (tools/pack/pack.js) and hands the tarballs to one
// `npm install -g`, so the installed copy owns its files and no longer needs this clone.
// Builds nothing (`npm run install-cli` builds first). Extra arguments go to npm:
//
//   node tools/pack/install.js [--prefix DIR] [--offline]
//
// --prefer-offline: third-party packages come from the npm cache when it has them
// (docs/install.md); the @trufflepig/* packages always come from the tarballs.
// --allow-scripts names the native tree-sitter modules: their install script builds the
// addon where the prebuilt binary does not load.
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { packAll, withInstallScripts } = require('./pack');

const NPM = 'npm';
const CLI = 'trufflepig';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trufflepig-pack-'));
let status = 1;
try {
  const tarballs = packAll(dir, [CLI]);
  // Run outside the clone so only the user's npm configuration applies, as for a registry install.
  // --legacy-peer-deps as in the clone's .npmrc: the grammars' optional tree-sitter peer
  // ranges are older than the tree-sitter the index uses; without it npm only warns.
  const npmArgs = [
    'install',
    '--global',
    '--prefer-offline',
    '--legacy-peer-deps',
    `--allow-scripts=${withInstallScripts([CLI]).join(',')}`,
    ...process.argv.slice(2),
    ...tarballs,
  ];
  const r = spawnSync(NPM, npmArgs, { cwd: os.tmpdir(), stdio: 'inherit' });
  status = r.status ?? 1;
  if (status === 0) console.log('installed: trufflepig (try `trufflepig --version`)');
} catch (err) {
  process.stderr.write(`install: ${err.message.split('\n')[0]}\n`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exitCode = status;
