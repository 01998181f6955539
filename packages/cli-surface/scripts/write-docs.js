#!/usr/bin/env node
'use strict';
// Rewrites the generated blocks of docs/cli.md (the synopsis, the verb table and the
// option table) from the built table: `npm run build` here first, then
// `node packages/cli-surface/scripts/write-docs.js` (or `npm run docs -w @trufflepig/cli-surface`).
// test/text.test.ts fails while docs/cli.md differs from what this writes.
const fs = require('fs');
const path = require('path');
const { fillGenerated } = require('../dist');

const DOC = path.resolve(__dirname, '..', '..', '..', 'docs', 'cli.md');
const before = fs.readFileSync(DOC, 'utf8');
const after = fillGenerated(before);
if (after !== before) fs.writeFileSync(DOC, after);
process.stdout.write(`${path.relative(process.cwd(), DOC)}: ${after === before ? 'up to date' : 'rewritten'}\n`);
