import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { assignToolNames, mcpToolName } from '../../../src/core/mcp/mcpNames';

const sha8 = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 8);

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

test('names whose `<server>__<tool>` is the same raw text (server a__b tool c, server a tool b__c) both get one, and hash apart', () => {
  const one = { server: 'a', tool: 'b__c' };
  const two = { server: 'a__b', tool: 'c' };
  const table = assignToolNames([one, two], new Set());
  expect(table.size).toBe(2);
  expect([...table.values()]).toEqual([one, two]);
  expect(table.get('a__b__c')).toBe(one); // first in order keeps the plain name
  const [, hashed] = [...table.keys()];
  expect(hashed).toBe(`a__b__c_${sha8('a__b\0c')}`);
  // Cut long names hash `<server>\0<tool>` too: the two differ.
  expect(mcpToolName('a', `b__${'c'.repeat(70)}`)).not.toBe(mcpToolName('a__b', 'c'.repeat(70)));
});

test("a project's tools never take a name the person's tools have: not the plain one, not the hashed one, not with a counter", () => {
  const mine = { server: 'my.server', tool: 'x', priority: 0 };
  const alone = [...assignToolNames([mine], new Set())][0]![0];
  expect(alone).toBe('my_server__x');
  // A project server whose names clean to the same text, and tools named as every form the person's could take.
  const project = [
    { server: 'my server', tool: 'x', priority: 1 },
    { server: 'my server', tool: `x_${sha8('my.server\0x')}`, priority: 1 },
    { server: 'my server', tool: `x_${sha8('my.server\0x\0' + '1')}`, priority: 1 },
    { server: 'MY_SERVER', tool: 'X', priority: 1 },
    { server: 'a', tool: 'b', priority: 1 },
  ];
  const table = assignToolNames([...project, mine], new Set());
  expect(table.get('my_server__x')).toBe(mine);
  expect(table.size).toBe(project.length + 1);
  expect([...table.keys()].filter((n) => n.toLowerCase() === 'my_server__x')).toEqual(['my_server__x']);
  // And the person's tool that had to be hashed (a built-in's name) keeps its hashed name whatever a project adds.
  const reserved = new Set(['my_server__x']);
  const hashed = [...assignToolNames([mine], reserved)][0]![0];
  expect(hashed).toBe(`my_server__x_${sha8('my.server\0x')}`);
  expect(assignToolNames([...project, mine], reserved).get(hashed)).toBe(mine);
});

test('case-insensitive: a name differing from a built-in or another tool only in case takes the hash; a hash taken too gets a counter', () => {
  const table = assignToolNames([{ server: 'S', tool: 'x' }, { server: 's', tool: 'x' }, { server: 'Read', tool: 'me' }], new Set(['read__me']));
  expect([...table.keys()]).toEqual(['Read__me_' + sha8('Read\0me'), 'S__x', 's__x_' + sha8('s\0x')]);
  // The plain name and the first hash are both taken: the counter goes on until a name is free.
  const ref = { server: 'srv', tool: 't' };
  const first = `srv__t_${sha8('srv\0t')}`;
  const second = `srv__t_${sha8('srv\0t\0' + '1')}`;
  expect([...assignToolNames([ref], new Set(['srv__t', first]))][0]![0]).toBe(second);
  expect([...assignToolNames([ref], new Set(['srv__t', first, second]))][0]![0]).toBe(`srv__t_${sha8('srv\0t\0' + '2')}`);
});

test('many colliding and long names: every tool named, names unique (any case), at most 64 of [A-Za-z0-9_-], the same in any order', () => {
  const refs: { server: string; tool: string; priority: number }[] = [];
  for (const server of ['s', 'S', 's.', 's_', 's__t', 'ß', 'x'.repeat(70)])
    for (const tool of ['t', 'T', 't.', 't_', '__', 't__t', 'é', 'y'.repeat(80), `t_${sha8('s\0t')}`]) refs.push({ server, tool, priority: refs.length % 2 });
  const table = assignToolNames([...refs, refs[3]!, { ...refs[4]!, priority: 0 }], new Set(['s__t'])); // a ref listed twice is one tool
  expect(table.size).toBe(refs.length);
  const names = [...table.keys()];
  expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
  expect(names.every((n) => /^[A-Za-z0-9_-]{1,64}$/.test(n))).toBe(true);
  let seed = 7;
  const shuffled = [...refs].sort(() => ((seed = (seed * 48271) % 2147483647) % 3) - 1);
  expect([...assignToolNames(shuffled, new Set(['s__t']))].map(([n, r]) => [n, r.server, r.tool])).toEqual([...table].map(([n, r]) => [n, r.server, r.tool]));
});
