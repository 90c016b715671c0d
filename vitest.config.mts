import { defineConfig } from 'vitest/config';
import { mdText } from './test/mdText.mts';

// Unit and component tests: Node, real temp directories, real processes and servers.
export default defineConfig({
  plugins: [mdText()],
  test: {
    include: ['test/unit/**/*.test.ts'],
    globalSetup: ['test/unit/globalSetup.ts'],
    // Many tests spawn the CLI, bash, git or servers: sized for a loaded 2-core machine, not an idle one.
    testTimeout: 60_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/unit.json' },
  },
});
