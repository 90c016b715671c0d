// An MCP server's input schema as ajv compiles it: no regular expression of the
// server's runs on the host thread (a backtracking `pattern` held it for 20 s), the
// check only ever gets looser than the server's, and what the model is shown is the
// server's schema unchanged.
import { expect, test } from 'vitest';
import { compileInputSchema, modelSchema, withoutPatterns } from '../../../src/core/mcp/mcpSchema';

const EVIL = '^(a+)+$';
const slow = `${'a'.repeat(27)}!`;

function checker(schema: unknown): (input: unknown) => string | undefined {
  const compiled = compileInputSchema(schema);
  if (!('check' in compiled)) throw new Error(compiled.error);
  return compiled.check;
}

/** How long a call takes, in ms. */
function timed(run: () => unknown): number {
  const t0 = performance.now();
  run();
  return performance.now() - t0;
}

test('a backtracking pattern in pattern, patternProperties, propertyNames, items, $defs or under not never runs', () => {
  const cases: [schema: Record<string, unknown>, input: Record<string, unknown>][] = [
    [{ type: 'object', properties: { q: { type: 'string', pattern: EVIL } } }, { q: slow }],
    [{ type: 'object', patternProperties: { [EVIL]: { type: 'string' } } }, { [slow]: slow }],
    [{ type: 'object', propertyNames: { pattern: EVIL } }, { [slow]: 1 }],
    [{ type: 'object', properties: { q: { type: 'array', items: { type: 'string', pattern: EVIL } } } }, { q: [slow, slow] }],
    [{ type: 'object', properties: { q: { $ref: '#/$defs/word' } }, $defs: { word: { type: 'string', pattern: EVIL } } }, { q: slow }],
    [{ type: 'object', properties: { q: { type: 'string', not: { pattern: EVIL } } } }, { q: slow }],
    [{ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { q: { $ref: '#/definitions/x' } }, definitions: { x: { pattern: EVIL } } }, { q: slow }],
  ];
  for (const [schema, input] of cases) {
    const check = checker(schema);
    const ms = timed(() => expect(check(input)).toBeUndefined());
    expect(ms, JSON.stringify(schema)).toBeLessThan(200);
  }
});

test('the check is looser, never stricter: additionalProperties false beside patternProperties, a parent\'s unevaluatedProperties, not and oneOf around a pattern', () => {
  const props = checker({ type: 'object', properties: { n: { type: 'number' } }, patternProperties: { '^x_': { type: 'string' } }, additionalProperties: false });
  expect(props({ n: 1, x_a: 'a' })).toBeUndefined(); // matched a pattern: still accepted
  expect(props({ n: 1, other: true })).toBeUndefined(); // looser: the server judges it
  expect(props({ n: 'one' })).toMatch(/^n: /); // the rest is still checked

  const evaluated = checker({ type: 'object', allOf: [{ patternProperties: { '^x_': { type: 'string' } } }], unevaluatedProperties: false });
  expect(evaluated({ x_a: 'a' })).toBeUndefined();

  const negated = checker({ type: 'object', properties: { q: { type: 'string', not: { pattern: '^rm ' } } } });
  expect(negated({ q: 'ls' })).toBeUndefined(); // `not: {}` would have refused everything
  expect(negated({ q: 5 })).toMatch(/^q: /);

  const exclusive = checker({ type: 'object', properties: { q: { oneOf: [{ type: 'string', pattern: '^a' }, { type: 'string', pattern: '^b' }] } } });
  expect(exclusive({ q: 'a' })).toBeUndefined(); // both branches match once their patterns are gone: oneOf would refuse

  const conditional = checker({ type: 'object', properties: { q: { if: { pattern: '^a' }, then: { type: 'string' }, else: { type: 'number' } } } });
  expect(conditional({ q: 'b' })).toBeUndefined();

  // Not a pattern at all: a parameter named `pattern`, a const holding one, a keyword-free not.
  const named = checker({ type: 'object', properties: { pattern: { type: 'string' }, patternProperties: { type: 'number' } }, required: ['pattern'] });
  expect(named({})).toBe('input: missing pattern');
  expect(named({ pattern: 'x', patternProperties: 'y' })).toMatch(/^patternProperties: /);
  const data = checker({ type: 'object', properties: { o: { const: { pattern: '^a' } }, n: { not: { type: 'string' } } } });
  expect(data({ o: { pattern: '^a' } })).toBeUndefined();
  expect(data({ o: {} })).toMatch(/^o: /);
  expect(data({ n: 's' })).toMatch(/^n: /);
});

test('the server\'s schema is not changed, the model is shown it whole, and a schema without patterns is used as it is', () => {
  const schema = { type: 'object', properties: { q: { type: 'string', pattern: EVIL } }, patternProperties: { '^x': {} }, additionalProperties: false };
  const before = JSON.stringify(schema);
  checker(schema);
  expect(JSON.stringify(schema)).toBe(before);
  expect(modelSchema(schema)).toEqual(schema);
  const plain = { type: 'object', properties: { q: { type: 'string' } } };
  expect(withoutPatterns(plain)).toBe(plain);
});

test('a schema 3000 levels deep is walked without recursion: its patterns go, nothing throws', () => {
  let leaf: Record<string, unknown> = { type: 'string', pattern: EVIL };
  for (let i = 0; i < 3000; i++) leaf = { type: 'object', properties: { a: leaf }, patternProperties: { [EVIL]: {} } };
  const stripped = withoutPatterns(leaf);
  let node: Record<string, unknown> | undefined = stripped;
  let depth = 0;
  while (node) {
    expect(node.patternProperties).toBeUndefined();
    expect(node.pattern).toBeUndefined();
    node = (node.properties as Record<string, Record<string, unknown>> | undefined)?.a;
    depth++;
  }
  expect(depth).toBe(3001);
  expect(() => compileInputSchema(leaf)).not.toThrow(); // ajv itself recurses: a usable tool or a reason, never a throw
});
