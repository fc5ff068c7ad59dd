import { defineConfig } from 'vitest/config';

// One runner for every test: pure logic, server (inject/injectWS), vision and browser tests.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Vision and browser tests are heavy on this 2-core machine: keep files from fighting for CPU.
    maxWorkers: 2,
  },
});
