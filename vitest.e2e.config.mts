import { defineConfig } from 'vitest/config';
import { mdText } from './test/mdText.mts';

// End to end: Playwright drives Debian's Chromium against a real VS Code (code-server).
export default defineConfig({
  plugins: [mdText()],
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    globalSetup: ['test/unit/globalSetup.ts'],
    setupFiles: ['test/e2e/failureShots.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 240_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/e2e.json' },
  },
});
