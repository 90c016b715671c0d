// What a tools/call result becomes for the model, how a server's schema checks input,
// and what the approval card of a project server shows.
import { expect, test } from 'vitest';
import { boundMiddle, mapCallResult } from '../../../src/core/mcp/mcpResult';
import { compileInputSchema, modelSchema } from '../../../src/core/mcp/mcpSchema';
import { commandLine, maskedPair, parseEnvFile } from '../../../src/core/mcp/serverCard';

test('results: text stays text; images, audio and blobs are noted by type and size; text resources inline; links by URI', () => {
  const result = mapCallResult(
    {
      content: [
        { type: 'text', text: 'first' },
        { type: 'image', data: Buffer.alloc(3072).toString('base64'), mimeType: 'image/png' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'inside a' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', blob: Buffer.alloc(10).toString('base64'), mimeType: 'application/octet-stream' } },
        { type: 'resource_link', uri: 'file:///c.md', name: 'c.md', mimeType: 'text/markdown' },
      ],
    },
    'srv › t',
    100_000,
  );
  expect(result.output.split('\n\n')).toEqual([
    'first',
    '[image image/png, 3 KB, attached as image 1]',
    '[audio audio/wav, 3 B: not passed on, Peon gives the model no audio]',
    '<resource uri="file:///a.txt" mimeType="text/plain">\ninside a\n</resource>',
    '[resource file:///b.bin: binary, application/octet-stream, 10 B]',
    '[resource link file:///c.md (c.md), text/markdown]',
  ]);
  expect(result.data).toMatchObject({ content: ['text', 'image', 'audio', 'resource', 'resource_link'], truncated: false });
  expect(result.images).toEqual([{ mimeType: 'image/png', data: Buffer.alloc(3072).toString('base64') }]);
});

test('images: only PNG, JPEG, GIF and WebP, each at most 2 MB, four a result; the rest noted and not attached', () => {
  const png = (bytes: number) => ({ type: 'image', mimeType: 'image/png', data: Buffer.alloc(bytes).toString('base64') });
  const result = mapCallResult({ content: [{ type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' }, png(3 * 1024 * 1024), png(10), png(10), png(10), png(10), png(10), { type: 'image', mimeType: 'image/png', data: 'not base64!' }] }, 's › t', 100_000);
  expect(result.images).toHaveLength(4);
  expect(result.output).toContain('[image image/svg+xml, 5 B: not passed on (only PNG, JPEG, GIF and WebP are)]');
  expect(result.output).toContain('[image image/png, 3.0 MB: not passed on (over 2.0 MB)]');
  expect(result.output).toContain('not passed on (at most 4 images a result)');
  expect(result.output.match(/not passed on \(only/g)).toHaveLength(2);
});

test('structuredContent is given as JSON only when no text came with it; isError throws with the text; nothing at all says so', () => {
  expect(mapCallResult({ content: [], structuredContent: { temperature: 21 } }, 'w › t', 1000).output).toBe('{"temperature":21}');
  expect(mapCallResult({ content: [{ type: 'text', text: 'It is 21°' }], structuredContent: { temperature: 21 } }, 'w › t', 1000).output).toBe('It is 21°');
  expect(mapCallResult({ content: [] }, 'w › t', 1000).output).toBe('(the tool returned no content)');
  expect(() => mapCallResult({ isError: true, content: [{ type: 'text', text: 'no such city' }] }, 'w › t', 1000)).toThrow(expect.objectContaining({ code: 'io_error', message: 'w › t reported an error: no such city' }));
});

test('a result over the output limit keeps its start and end, says how much was cut, and stays within the limit', () => {
  const text = `${'a'.repeat(5000)}${'b'.repeat(5000)}`;
  const cut = boundMiddle(text, 1000);
  expect(cut.truncated).toBe(true);
  expect(cut.text.length).toBeLessThanOrEqual(1000);
  expect(cut.text.startsWith('aaa')).toBe(true);
  expect(cut.text.endsWith('bbb')).toBe(true);
  expect(cut.text).toContain('9000 characters cut');
  expect(boundMiddle('short', 1000)).toEqual({ text: 'short', truncated: false });
});

test('schemas: draft 2020-12 by default, draft-07 when named; a schema that does not compile or is not an object is refused with why', () => {
  const modern = compileInputSchema({ type: 'object', properties: { items: { type: 'array', prefixItems: [{ type: 'number' }], items: false } }, required: ['items'] });
  if (!('check' in modern)) throw new Error(modern.error);
  expect(modern.check({ items: [1] })).toBeUndefined();
  expect(modern.check({ items: [1, 2] })).toMatch(/items/);
  expect(modern.check({})).toBe('input: missing items');
  const draft7 = compileInputSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false } }, additionalProperties: false });
  if (!('check' in draft7)) throw new Error(draft7.error);
  expect(draft7.check({ pair: ['a', 1] })).toBeUndefined();
  expect(draft7.check({ pair: ['a', 1, 2] })).toMatch(/pair/);
  expect(draft7.check({ other: 1 })).toBe('input: unknown parameter other');
  expect(compileInputSchema({ type: 'object', properties: { x: { type: 'no-such-type' } } })).toMatchObject({ error: expect.stringMatching(/does not compile/) });
  expect(compileInputSchema({ type: 'string' })).toEqual({ error: 'its input schema describes "string", not an object' });
  expect(compileInputSchema(null)).toEqual({ error: 'its input schema is not a JSON object' });
  // Formats stay hints: a server's `format: "uri"` does not refuse a relative path.
  const formats = compileInputSchema({ type: 'object', properties: { u: { type: 'string', format: 'uri' } } });
  expect('check' in formats && formats.check({ u: 'docs/a.md' })).toBeUndefined();
  // Two servers may use the same $id without meeting in ajv's registry.
  expect('check' in compileInputSchema({ $id: 'urn:same', type: 'object' })).toBe(true);
  expect('check' in compileInputSchema({ $id: 'urn:same', type: 'object' })).toBe(true);
  expect(modelSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' })).toEqual({ type: 'object', properties: {} });
});

test('the server card: argv as a shell would read it, secret-looking values masked, .env files as VS Code reads them', () => {
  expect(commandLine('npx', ['-y', '@scope/pkg@1.0', 'a b', "it's"])).toBe(`npx -y @scope/pkg@1.0 'a b' 'it'\\''s'`);
  expect(['GITHUB_TOKEN', 'API_KEY', 'DB_PASSWORD', 'AUTH', 'client_secret'].map((k) => maskedPair(k, 'v'))).toEqual(['GITHUB_TOKEN=••••••••', 'API_KEY=••••••••', 'DB_PASSWORD=••••••••', 'AUTH=••••••••', 'client_secret=••••••••']);
  expect(maskedPair('MODE', 'dev')).toBe('MODE=dev');
  expect(parseEnvFile('# comment\nA=1\nexport B="two words"\nC=\'x # not a comment\'\nD=plain # a comment\n\nbad line\nE="line\\nbreak"\n')).toEqual({ A: '1', B: 'two words', C: 'x # not a comment', D: 'plain', E: 'line\nbreak' });
});
