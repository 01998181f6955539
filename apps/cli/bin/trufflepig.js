#!/usr/bin/env node
'use strict';
// The `trufflepig` bin. It is committed (and executable in Git) rather than pointing the
// bin at dist/main.js because `npm ci` links bins before anything is built: npm skips a
// bin whose file does not exist yet, and tsc writes dist/main.js without the execute bit,
// so `npx trufflepig` in a fresh clone found nothing to run. dist/main.js still loads its
// fast path (./fast-path) relative to itself.
const fs = require('fs');
const path = require('path');

const main = path.join(__dirname, '..', 'dist', 'main.js');
if (fs.existsSync(main)) {
  require(main);
} else {
  process.stderr.write(
    'trufflepig: not_built: apps/cli/dist/main.js is missing; run `npm run build` in the clone first\n',
  );
  process.exitCode = 2;
}
