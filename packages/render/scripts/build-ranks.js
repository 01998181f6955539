// Build step: turn js-tiktoken's o200k_base ranks into an open-addressing hash table
// file (dist/o200k.ranks.bin) that the tokenizer reads in a few milliseconds instead of
// building a 200k-entry Map on every process start (~60-120 ms).
//
// Layout (little endian): "TPR1", u32 slot count (power of two), u32 key blob bytes,
// then slot count × (u32 key offset + 1, 0 = empty; u32 rank), then the key blob:
// per key a u16 length followed by its bytes, then u32 length + the UTF-8 pre-tokenizer
// pattern (pat_str). Hash: FNV-1a 32 over the key bytes.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

function fnv1a(bytes, start, end) {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    h ^= bytes[i];
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

const ranks = require('js-tiktoken/ranks/o200k_base');
const keys = [];
for (const line of ranks.bpe_ranks.split('\n')) {
  const fields = line.split(' ');
  if (fields.length < 2) continue;
  const offset = Number.parseInt(fields[1], 10);
  for (let i = 2; i < fields.length; i++) if (fields[i]) keys.push([Buffer.from(fields[i], 'base64'), offset + i - 2]);
}
let slots = 1;
while (slots < keys.length * 2) slots <<= 1;
const blobSize = keys.reduce((n, [k]) => n + 2 + k.length, 0);
const pattern = Buffer.from(ranks.pat_str, 'utf8');
const out = Buffer.alloc(12 + slots * 8 + blobSize + 4 + pattern.length);
out.write('TPR1', 0, 'latin1');
out.writeUInt32LE(slots, 4);
out.writeUInt32LE(blobSize, 8);
const table = new Uint32Array(out.buffer, out.byteOffset + 12, slots * 2);
const blob = 12 + slots * 8;
let at = 0;
for (const [key, rank] of keys) {
  out.writeUInt16LE(key.length, blob + at);
  key.copy(out, blob + at + 2);
  let slot = fnv1a(key, 0, key.length) & (slots - 1);
  while (table[slot * 2] !== 0) slot = (slot + 1) & (slots - 1);
  table[slot * 2] = at + 1;
  table[slot * 2 + 1] = rank;
  at += 2 + key.length;
}
out.writeUInt32LE(pattern.length, blob + blobSize);
pattern.copy(out, blob + blobSize + 4);
const target = path.join(__dirname, '..', 'dist', 'o200k.ranks.bin');
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, out);
