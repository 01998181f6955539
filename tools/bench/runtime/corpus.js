'use strict';
// The bench's own editable copy of the core corpus. tools/lib/corpus.js hard-links the crate
// sources from /usr/share/cargo/registry, so writing into a linked file would change the
// system's copy: every file this bench edits is first replaced by a private copy (write a
// temp file, rename over the link), and no write goes to a file with another link.
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { coreCorpus, walkFiles, CARGO_REGISTRY: REGISTRY } = require('../../lib/corpus');

const CREATED_PREFIX = 'tp_bench_edit_';
// Files the bench appends to: mid-sized .rs files, spread over crates (picked deterministically).
const EDITABLE_FILES = 48;
const EDITABLE_MIN_BYTES = 2000;
const EDITABLE_MAX_BYTES = 20000;

/** Calls onFile(path, name) for every regular file under dir. */
function walk(dir, onFile) {
  for (const full of walkFiles(dir)) onFile(full, path.basename(full));
}

/** Every 1/Nth mid-sized .rs file of the corpus in path order: the same list on every run. */
function pickEditableFiles(corpus) {
  const candidates = [];
  walk(corpus, (full, name) => {
    if (!name.endsWith('.rs') || name.startsWith(CREATED_PREFIX)) return;
    const size = fs.statSync(full).size;
    if (size >= EDITABLE_MIN_BYTES && size <= EDITABLE_MAX_BYTES) candidates.push(path.relative(corpus, full));
  });
  candidates.sort();
  const step = Math.max(1, Math.floor(candidates.length / EDITABLE_FILES));
  const picked = [];
  for (let i = Math.floor(step / 2); i < candidates.length && picked.length < EDITABLE_FILES; i += step)
    picked.push(candidates[i]);
  return picked;
}

/** Replaces corpus/rel with a private copy of the registry original (undoing earlier appends). */
function restorePrivateCopy(corpus, rel) {
  const dest = path.join(corpus, rel);
  const original = path.join(REGISTRY, rel);
  const bytes = fs.readFileSync(fs.existsSync(original) ? original : dest);
  const tmp = `${dest}.tp-bench-tmp`;
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, dest);
}

/** Removes the files earlier runs created; returns how many. */
function removeCreatedFiles(corpus) {
  let removed = 0;
  walk(corpus, (full, name) => {
    if (name.startsWith(CREATED_PREFIX) || name.endsWith('.tp-bench-tmp')) {
      fs.rmSync(full, { force: true });
      removed++;
    }
  });
  return removed;
}

/** Assembles (once) and resets the editable corpus under work; returns its description. */
function prepareCorpus(work) {
  const corpus = path.join(work, 'corpus');
  const summary = coreCorpus(corpus);
  const removed = removeCreatedFiles(corpus);
  const editable = pickEditableFiles(corpus);
  for (const rel of editable) restorePrivateCopy(corpus, rel);
  return { corpus, files: summary.files, bytes: summary.bytes, editable, removedLeftovers: removed };
}

/** Undoes the run's edits (appends restored, created files removed). */
function resetEdits(prepared) {
  removeCreatedFiles(prepared.corpus);
  for (const rel of prepared.editable) restorePrivateCopy(prepared.corpus, rel);
}

const uniqueIdentifier = (n) => `tp_edit_${n}_${crypto.randomBytes(6).toString('hex')}`;

/** Appends `// IDENT` to an editable file (refusing a file that is still hard-linked). */
function appendLine(corpus, rel, identifier) {
  const full = path.join(corpus, rel);
  const st = fs.statSync(full);
  if (st.nlink !== 1) throw new Error(`refusing to edit ${full}: it has ${st.nlink} links (a shared copy)`);
  fs.appendFileSync(full, `\n// ${identifier}\n`);
  return rel;
}

/** Creates a small new .rs file holding IDENT next to an editable file; returns its path. */
function createFile(corpus, nextToRel, identifier) {
  const rel = path.join(path.dirname(nextToRel), `${CREATED_PREFIX}${identifier}.rs`);
  fs.writeFileSync(path.join(corpus, rel), `// ${identifier}\npub fn ${identifier}_fn() -> u32 {\n    42\n}\n`);
  return rel;
}

module.exports = { prepareCorpus, resetEdits, uniqueIdentifier, appendLine, createFile, CREATED_PREFIX };
