// Shared jest settings: tests are TypeScript transpiled by swc (type checking is the
// build's job), and sibling packages resolve through node_modules to their built dist.
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
    ],
  },
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 60000,
  // One temporary directory per run, removed at its end (jest.global-setup.js).
  globalSetup: require.resolve('./jest.global-setup.js'),
  globalTeardown: require.resolve('./jest.global-teardown.js'),
};
