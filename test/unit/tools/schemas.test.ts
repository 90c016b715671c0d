import { expect, test } from 'vitest';
import { builtinRegistry } from '../../../src/core/tools/builtins';

// What the model sees of each tool: its description and JSON Schema. A change to either
// shows up here as a diff to review (`npx vitest run -u` accepts it).
for (const tool of builtinRegistry().list()) {
  test(`${tool.name}: description and input schema`, async () => {
    const seen = { name: tool.name, risk: tool.risk, description: tool.description, inputSchema: tool.inputSchema };
    await expect(`${JSON.stringify(seen, null, 2)}\n`).toMatchFileSnapshot(`./__schemas__/${tool.name}.json`);
  });
}
