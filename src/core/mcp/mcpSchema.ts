// An MCP tool's input schema as a validator (DESIGN.md §4: inputs are validated by ajv
// against the server's schema before the call). Draft 2020-12 is MCP's default; a
// schema that names draft-07 (or older) is checked by draft-07's rules. Formats are not
// asserted (ajv-formats is not loaded: a server's `format: "uri"` stays a hint), unknown
// keywords are allowed, and a schema that does not compile makes the tool unusable with
// the reason — never a call sent unchecked.
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

/** The validator of one tool's input, or why its schema cannot be used. */
export function compileInputSchema(schema: unknown): { check: InputCheck } | { error: string } {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return { error: 'its input schema is not a JSON object' };
  const given = schema as Record<string, unknown>;
  if (given.type !== undefined && given.type !== 'object') return { error: `its input schema describes ${JSON.stringify(given.type)}, not an object` };
  let validate: ValidateFunction;
  try {
    // Compiled without an $id, so two servers' schemas never meet in ajv's registry.
    const { $id: _id, ...rest } = given;
    validate = compilerFor(given).compile(rest);
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
