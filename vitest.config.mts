import { defineConfig } from 'vitest/config';
import { mdText } from './test/mdText.mts';

// Unit and component tests: Node, real temp directories, real processes and servers.
export default defineConfig({
  plugins: [mdText()],
  test: {
    include: ['test/unit/**/*.test.ts'],
    globalSetup: ['test/unit/globalSetup.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/unit.json' },
  },
});
