/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  setupFiles: ['<rootDir>/test/setup-env.js'],
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  testTimeout: 30000,
  // Two test files at a time, whatever the cores: jest's default on a two-core machine is one, in
  // band, and most of a file's time is spent waiting on the processes, browsers and servers it
  // starts, not on the CPU. Two files at once took the suite from 24 to 18 minutes here.
  maxWorkers: 2,
  testSequencer: '<rootDir>/test/sequencer.js',
};
