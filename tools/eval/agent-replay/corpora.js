'use strict';
// The three real repositories the replay asks questions about, and how each is assembled.
// Every corpus is a copy of packaged sources, so a fresh machine gets the same bytes back;
// the labelled files are pinned by SHA-256 in questions.json (see setup.js).

const CORPORA = {
  // JavaScript; the npm CLI ships (and this repository commits) its dependencies under
  // node_modules/, the case where an index that skips node_modules answers wrongly.
  npm: {
    language: 'javascript',
    kind: 'npm',
    spec: 'npm@10.9.9',
    vendored: 'node_modules',
  },
  // Python: Flask and Werkzeug from Debian bookworm, side by side as one repository.
  flask: {
    language: 'python',
    kind: 'debian',
    packages: ['python3-flask', 'python3-werkzeug'],
    versions: { 'python3-flask': '2.2.2-3', 'python3-werkzeug': '2.2.2-3+deb12u1' },
    sources: [
      { from: '/usr/lib/python3/dist-packages/flask', to: 'flask' },
      { from: '/usr/lib/python3/dist-packages/werkzeug', to: 'werkzeug' },
    ],
  },
  // Rust: the regex crate and the crates it is built from, from Debian bookworm.
  regex: {
    language: 'rust',
    kind: 'debian',
    packages: ['librust-regex-dev', 'librust-regex-syntax-dev', 'librust-aho-corasick-dev', 'librust-memchr-dev'],
    sources: [
      { from: '/usr/share/cargo/registry/regex-1.7.1', to: 'regex-1.7.1' },
      { from: '/usr/share/cargo/registry/regex-syntax-0.6.27', to: 'regex-syntax-0.6.27' },
      { from: '/usr/share/cargo/registry/aho-corasick-0.7.19', to: 'aho-corasick-0.7.19' },
      { from: '/usr/share/cargo/registry/memchr-2.5.0', to: 'memchr-2.5.0' },
    ],
  },
};

module.exports = { CORPORA };
