// In-process searches reach tree-sitter (foreground indexing, worktree re-extraction).
// Its native binding breaks when jest re-evaluates it for a second test file in the same
// process (see packages/index/jest.config.js): recycle the worker after every file.
module.exports = { ...require('../../jest.preset.js'), workerIdleMemoryLimit: '1MB', maxWorkers: 2 };
