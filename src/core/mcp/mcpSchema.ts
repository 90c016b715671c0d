// An MCP tool's input schema as a validator (DESIGN.md §4: inputs are validated by ajv
// against the server's schema before the call). Draft 2020-12 is MCP's default; a
// schema that names draft-07 (or older) is checked by draft-07's rules. Formats are not
// asserted (ajv-formats is not loaded: a server's `format: "uri"` stays a hint), unknown
// keywords are allowed, and a schema that does not compile makes the tool unusable with
// the reason — never a call sent unchecked.
//
// Regular expressions are not checked here. ajv compiles `pattern` and
// `patternProperties` with the JS RegExp engine, which backtracks, and validates on the
// host thread: a server's `pattern: "^(a+)+$"` held the extension host for 20 s on a
// 28-character input. So the schema ajv compiles is a copy (withoutPatterns, an
// iterative walk: schemas arrive 3000 levels deep) without `pattern` and
// `patternProperties` anywhere a schema can stand; what their absence would make
// stricter (`additionalProperties: false` beside them, a `not` around one) is dropped
// too. Validation is looser than the server's schema, never stricter; the server still
// checks its own input. The schema the model is shown (modelSchema) is the server's,
// unchanged.
import Ajv2020 from 'ajv/dist/2020';
import AjvDraft7, { type ErrorObject, type ValidateFunction } from 'ajv';

const options = { strict: false, allErrors: true, validateFormats: false, validateSchema: false } as const;
let draft2020: Ajv2020 | undefined;
let draft7: AjvDraft7 | undefined;

export type InputCheck = (input: unknown) => string | undefined;

function compilerFor(schema: Record<string, unknown>): Ajv2020 | AjvDraft7 {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/draft-0[4-7]/.test(dialect)) return (draft7 ??= new AjvDraft7(options));
  return (draft2020 ??= new Ajv2020(options));
}

/** A schema without `$schema` (what the model is shown), and an object schema always. */
export function modelSchema(schema: unknown): Record<string, unknown> {
  const given = schema && typeof schema === 'object' && !Array.isArray(schema) ? (schema as Record<string, unknown>) : {};
  const { $schema: _dialect, ...rest } = given;
  return { ...rest, type: 'object', properties: (rest.properties as object | undefined) ?? {} };
}

/** Keywords whose value is a map of names to schemas: the map's keys are names, never keywords. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);
/** Keywords whose value is data (an instance, not a schema): never walked. */
const DATA = new Set(['const', 'enum', 'default', 'examples', 'required', 'type']);
const REFS = new Set(['$ref', '$dynamicRef', '$recursiveRef']);

type Role = 'schema' | 'map';

/**
 * Whether a regular expression ajv would run (`pattern`, `patternProperties`) stands
 * anywhere a schema can in `value` — or, with `refs`, any reference (it may lead to
 * one). Iterative, early out.
 */
function hasRegex(value: unknown, refs: boolean): boolean {
  const seen = new Set<object>();
  const work: { value: unknown; role: Role }[] = [{ value, role: 'schema' }];
  while (work.length > 0) {
    const { value: node, role } = work.pop()!;
    if (!node || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) work.push({ value: item, role: 'schema' });
      continue;
    }
    for (const [keyword, sub] of Object.entries(node as Record<string, unknown>)) {
      if (role === 'map') work.push({ value: sub, role: 'schema' });
      else if (keyword === 'pattern' || keyword === 'patternProperties' || (refs && REFS.has(keyword))) return true;
      else if (!DATA.has(keyword)) work.push({ value: sub, role: SCHEMA_MAPS.has(keyword) ? 'map' : 'schema' });
    }
  }
  return false;
}

/**
 * `schema` without a regular expression for ajv to run, and accepting everything the
 * server's schema accepts (iterative; the input is not changed; a schema without any
 * comes back as it is). Where a schema can stand: `pattern` is dropped; so is
 * `patternProperties`, with the `additionalProperties` and `unevaluatedProperties`
 * beside it (they would now judge the names the patterns matched), and once one was,
 * every `unevaluatedProperties` (a parent's counted the names a subschema's patterns
 * evaluated). Dropping a check loosens only where it is not negated, so a `not`, an
 * `if` (with its `then` and `else`) or a `oneOf` whose subschemas hold a pattern or a
 * reference is dropped whole, and so is the `maxContains` of such a `contains`.
 * Unknown keywords are walked as schemas (a `$ref` can point anywhere); `const`,
 * `enum`, `default`, `examples` are data and kept as they are.
 */
export function withoutPatterns(schema: Record<string, unknown>): Record<string, unknown> {
  if (!hasRegex(schema, false)) return schema;
  const copies = { schema: new Map<object, unknown>(), map: new Map<object, unknown>() };
  const withUnevaluated: Record<string, unknown>[] = [];
  let patternPropertiesDropped = false;
  let root: Record<string, unknown> = {};
  // Each entry: a value in a role (every one here stands where dropping a check loosens), and where its copy goes.
  const work: { value: unknown; role: Role; put: (copy: unknown) => void }[] = [{ value: schema, role: 'schema', put: (copy) => (root = copy as Record<string, unknown>) }];
  while (work.length > 0) {
    const { value, role, put } = work.pop()!;
    if (!value || typeof value !== 'object') {
      put(value);
      continue;
    }
    const known = copies[role].get(value);
    if (known !== undefined) {
      put(known);
      continue;
    }
    if (Array.isArray(value)) {
      // An array where a schema stands (allOf, anyOf, prefixItems, draft-07 items): schemas.
      const copy: unknown[] = new Array(value.length);
      copies[role].set(value, copy);
      put(copy);
      value.forEach((item, i) => work.push({ value: item, role: 'schema', put: (c) => (copy[i] = c) }));
      continue;
    }
    const copy: Record<string, unknown> = {};
    copies[role].set(value, copy);
    put(copy);
    const node = value as Record<string, unknown>;
    if (role === 'map') {
      for (const [name, sub] of Object.entries(node)) work.push({ value: sub, role: 'schema', put: (c) => (copy[name] = c) });
      continue;
    }
    const dropsPatternProperties = Object.hasOwn(node, 'patternProperties');
    if (dropsPatternProperties) patternPropertiesDropped = true;
    const dropsIf = Object.hasOwn(node, 'if') && hasRegex(node.if, true);
    for (const [keyword, sub] of Object.entries(node)) {
      if (keyword === 'pattern' || keyword === 'patternProperties') continue;
      if (dropsPatternProperties && (keyword === 'additionalProperties' || keyword === 'unevaluatedProperties')) continue;
      if (dropsIf && (keyword === 'if' || keyword === 'then' || keyword === 'else')) continue;
      if (keyword === 'not' || keyword === 'oneOf' || keyword === 'if') {
        if (!hasRegex(sub, true)) copy[keyword] = sub; // nothing in it changes: kept as it is
        continue;
      }
      if (keyword === 'maxContains' && hasRegex(node.contains, true)) continue;
      if (keyword === 'unevaluatedProperties') withUnevaluated.push(copy);
      if (DATA.has(keyword)) copy[keyword] = sub;
      else work.push({ value: sub, role: SCHEMA_MAPS.has(keyword) ? 'map' : 'schema', put: (c) => (copy[keyword] = c) });
    }
  }
  if (patternPropertiesDropped) for (const copy of withUnevaluated) delete copy.unevaluatedProperties;
  return root;
}

/** The validator of one tool's input, or why its schema cannot be used. */
export function compileInputSchema(schema: unknown): { check: InputCheck } | { error: string } {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return { error: 'its input schema is not a JSON object' };
  const given = schema as Record<string, unknown>;
  if (given.type !== undefined && given.type !== 'object') return { error: `its input schema describes ${JSON.stringify(given.type)}, not an object` };
  let validate: ValidateFunction;
  try {
    // Compiled without an $id, so two servers' schemas never meet in ajv's registry; and
    // without regular expressions (the header says why).
    const { $id: _id, ...rest } = given;
    validate = compilerFor(given).compile(withoutPatterns(rest));
  } catch (error) {
    return { error: `its input schema does not compile: ${error instanceof Error ? error.message : String(error)}` };
  }
  return { check: (input) => (validate(input) ? undefined : describe(validate.errors ?? [])) };
}

function describe(errors: readonly ErrorObject[]): string {
  return errors
    .slice(0, 5)
    .map((e) => {
      const where = e.instancePath === '' ? 'input' : e.instancePath.slice(1).replaceAll('/', '.');
      if (e.keyword === 'additionalProperties') return `${where}: unknown parameter ${String((e.params as { additionalProperty?: unknown }).additionalProperty)}`;
      if (e.keyword === 'required') return `${where}: missing ${String((e.params as { missingProperty?: unknown }).missingProperty)}`;
      return `${where}: ${e.message ?? e.keyword}`;
    })
    .join('; ');
}
