import { expect, test } from 'vitest';
import { assignToolNames, mcpToolName } from '../../../src/core/mcp/mcpNames';

test('<server>__<tool>, characters outside [A-Za-z0-9_-] made _', () => {
  expect(mcpToolName('everything', 'echo')).toBe('everything__echo');
  expect(mcpToolName('home assistant', 'lights.on/off')).toBe('home_assistant__lights_on_off');
});

test('a name over 64 characters is cut and ends in a short hash of the full name: stable, and two sharing 64 characters differ', () => {
  const a = mcpToolName('server', `${'x'.repeat(70)}_one`);
  const b = mcpToolName('server', `${'x'.repeat(70)}_two`);
  expect(a).toHaveLength(64);
  expect(a).toMatch(/^server__x+_[0-9a-f]{8}$/);
  expect(a).not.toBe(b);
  expect(mcpToolName('server', `${'x'.repeat(70)}_one`)).toBe(a);
});

test('names that meet once cleaned, or meet a built-in, each take the hash; the table routes every tool, in any order', () => {
  const tools = [
    { server: 'a', tool: 'x.y' },
    { server: 'a', tool: 'x_y' },
    { server: 'fs', tool: 'read' },
  ];
  const table = assignToolNames(tools, new Set(['read', 'a__x_y']));
  expect(table.size).toBe(3);
  expect([...table.keys()].every((n) => /^[A-Za-z0-9_-]{1,64}$/.test(n))).toBe(true);
  expect(table.get('fs__read')).toEqual({ server: 'fs', tool: 'read' });
  expect(table.has('a__x_y')).toBe(false); // a built-in's name (here, reserved) is never given away
  expect([...assignToolNames([...tools].reverse(), new Set(['read', 'a__x_y']))]).toEqual([...table]);
});
