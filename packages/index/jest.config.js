// tree-sitter's native binding keeps per-process state tied to the first JS instance of the
// module; jest re-evaluates modules for every test file, so a second file in the same process
// gets "Cannot read properties of undefined (reading 'tree')" from Query.matches. A tiny idle
// memory limit makes jest use workers and recycle the worker after every test file.
module.exports = { ...require('../../jest.preset.js'), workerIdleMemoryLimit: '1MB', maxWorkers: 2 };
