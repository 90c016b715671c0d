// A server's elicitation requests (DESIGN.md §4 "MCP tools": "put to the person like
// askuserquestion's, labelled with the server's name"). A form's requestedSchema — a flat
// object of string, number, integer, boolean and enum fields — becomes askuserquestion's
// questions, and the answers come back typed and checked against the schema: a number is
// a number, a choice is one of the schema's values. Where nobody can answer (the CLI under
// `--approve all`), a form is accepted with the schema's defaults only when every required
// field has one. URL mode is declined: it would send the person to a page the server
// picks, and Peon declares only form elicitation.
import type { ElicitRequestFormParams, ElicitRequestParams, ElicitResult, PrimitiveSchemaDefinition, StringSchema } from '@modelcontextprotocol/sdk/types.js';
import { isQuestionId, MAX_QUESTIONS, type Question } from '../../shared/messages';
import type { QuestionAsker } from '../tools/contract';

type Value = string | number | boolean | string[];
/** Own properties whatever the names: a field called `__proto__` is a key, not the object's prototype. */
const contentOf = (entries: [string, Value][]): Record<string, Value> => Object.fromEntries(entries);

interface Option {
  readonly value: string;
  readonly label: string;
}

type Kind =
  | { readonly kind: 'text'; readonly format?: string; readonly minLength?: number; readonly maxLength?: number }
  | { readonly kind: 'number'; readonly integer: boolean; readonly minimum?: number; readonly maximum?: number }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'choice'; readonly options: readonly Option[] }
  | { readonly kind: 'choices'; readonly options: readonly Option[]; readonly minItems?: number; readonly maxItems?: number };

type Field = Kind & {
  /** The question's id: the property's name where it is a valid one, else `field-N`. */
  readonly id: string;
  /** The property's name, the key of the content. */
  readonly name: string;
  readonly label: string;
  readonly description?: string;
  readonly required: boolean;
  readonly default?: Value;
};

const MAX_QUESTION = 4000;
const MAX_AGENT = 100;
const MAX_OPTIONS = 50;
const MAX_OPTION = 500;
/** The one question of a form without fields (a confirmation). */
const CONFIRM = 'confirm';
const ACCEPT = 'Accept';
const DECLINE = 'Decline';

const isForm = (params: ElicitRequestParams): params is ElicitRequestFormParams => params.mode !== 'url';
const cut = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

function kindOf(schema: PrimitiveSchemaDefinition): Kind {
  if (schema.type === 'boolean') return { kind: 'boolean' };
  if (schema.type === 'number' || schema.type === 'integer') return { kind: 'number', integer: schema.type === 'integer', minimum: schema.minimum, maximum: schema.maximum };
  if (schema.type === 'array') {
    const items = schema.items;
    const options = 'anyOf' in items ? items.anyOf.map((o) => ({ value: o.const, label: o.title })) : items.enum.map((v) => ({ value: v, label: v }));
    return { kind: 'choices', options, minItems: schema.minItems, maxItems: schema.maxItems };
  }
  if ('oneOf' in schema) return { kind: 'choice', options: schema.oneOf.map((o) => ({ value: o.const, label: o.title })) };
  if ('enum' in schema) {
    const names = 'enumNames' in schema ? schema.enumNames : undefined;
    return { kind: 'choice', options: schema.enum.map((v, i) => ({ value: v, label: names?.[i] ?? v })) };
  }
  const text = schema as StringSchema;
  return { kind: 'text', format: text.format, minLength: text.minLength, maxLength: text.maxLength };
}

function fieldsOf(params: ElicitRequestFormParams): Field[] {
  const required = new Set(params.requestedSchema.required ?? []);
  const used = new Set<string>([CONFIRM]);
  return Object.entries(params.requestedSchema.properties).map(([name, schema], index) => {
    const id = isQuestionId(name) && !used.has(name) ? name : `field-${index + 1}`;
    used.add(id);
    return { ...kindOf(schema), id, name, label: schema.title ?? name, description: schema.description, required: required.has(name), default: schema.default };
  });
}

const FORMATS: Record<string, string> = { email: 'an email address', uri: 'a URL', date: 'a date, YYYY-MM-DD', 'date-time': 'a date and time, ISO 8601' };

function range(min: number | undefined, max: number | undefined, unit = ''): string | undefined {
  if (min !== undefined && max !== undefined) return `from ${min} to ${max}${unit}`;
  if (min !== undefined) return `at least ${min}${unit}`;
  if (max !== undefined) return `at most ${max}${unit}`;
  return undefined;
}

const shown = (value: Value): string => (Array.isArray(value) ? value.join(', ') : typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value));

/** What the field wants, in words: its kind, bounds and default. */
function hints(field: Field): string[] {
  const out: string[] = [];
  if (field.kind === 'number') out.push(field.integer ? 'a whole number' : 'a number', ...[range(field.minimum, field.maximum)].filter((r): r is string => r !== undefined));
  if (field.kind === 'text') {
    if (field.format) out.push(FORMATS[field.format] ?? field.format);
    const length = range(field.minLength, field.maxLength, ' characters');
    if (length) out.push(length);
  }
  if (field.kind === 'choices') out.push(`one or more of: ${field.options.map((o) => o.label).join(', ')} — separated by commas`, ...[range(field.minItems, field.maxItems, ' choices')].filter((r): r is string => r !== undefined));
  if (field.kind === 'choice' && field.options.length > MAX_OPTIONS) out.push(`one of: ${field.options.map((o) => o.label).join(', ')}`);
  if (field.default !== undefined) out.push(`leave empty for ${shown(field.default)}`);
  return out;
}

function questionOf(field: Field): Question {
  const said = hints(field);
  const text = `${field.label}${field.description ? ` — ${field.description}` : ''}${said.length > 0 ? ` (${said.join('; ')})` : ''}`;
  const options = field.kind === 'boolean' ? ['Yes', 'No'] : field.kind === 'choice' && field.options.length <= MAX_OPTIONS ? field.options.map((o) => cut(o.label, MAX_OPTION)) : undefined;
  return { id: field.id, question: text, type: options ? 'select' : 'text', ...(options ? { options } : {}), required: field.required && field.default === undefined };
}

export interface ElicitationQuestions {
  /** Who asks, as the modal and the terminal label it ("<agent> asks:"). */
  readonly agent: string;
  readonly questions: Question[];
}

/**
 * A form as questions labelled with the server's name, the first one carrying the
 * server's message; undefined when it cannot be put (URL mode, or more fields than the
 * question modal holds).
 */
export function elicitationQuestions(server: string, params: ElicitRequestParams): ElicitationQuestions | undefined {
  if (!isForm(params)) return undefined;
  const fields = fieldsOf(params);
  if (fields.length > MAX_QUESTIONS) return undefined;
  const agent = cut(`MCP server "${server}"`, MAX_AGENT);
  if (fields.length === 0) return { agent, questions: [{ id: CONFIRM, question: cut(params.message, MAX_QUESTION), type: 'select', options: [ACCEPT, DECLINE], required: true }] };
  const questions = fields.map((field, i) => {
    const question = questionOf(field);
    return { ...question, question: cut(i === 0 ? `${params.message}\n\n${question.question}` : question.question, MAX_QUESTION) };
  });
  return { agent, questions };
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function formatProblem(format: string, text: string): string | undefined {
  if (format === 'email' && !EMAIL.test(text)) return 'is not an email address';
  if (format === 'uri') {
    try {
      new URL(text);
    } catch {
      return 'is not a URL';
    }
  }
  if (format === 'date' && !(DATE.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text))) return 'is not a date (YYYY-MM-DD)';
  if (format === 'date-time' && !(DATE_TIME.test(text) && !Number.isNaN(Date.parse(text)))) return 'is not a date and time (ISO 8601)';
  return undefined;
}

function pick(options: readonly Option[], text: string): string | undefined {
  const exact = options.find((o) => o.label === text || o.value === text);
  const lower = text.toLowerCase();
  return (exact ?? options.find((o) => o.label.toLowerCase() === lower || o.value.toLowerCase() === lower))?.value;
}

/** An answer as the field's type, or why it is not one. */
function parse(field: Field, text: string): { value: Value } | { problem: string } {
  switch (field.kind) {
    case 'text': {
      if (field.minLength !== undefined && text.length < field.minLength) return { problem: `needs at least ${field.minLength} characters` };
      if (field.maxLength !== undefined && text.length > field.maxLength) return { problem: `takes at most ${field.maxLength} characters` };
      const problem = field.format ? formatProblem(field.format, text) : undefined;
      return problem ? { problem } : { value: text };
    }
    case 'number': {
      const value = Number(text);
      if (!NUMBER.test(text) || !Number.isFinite(value)) return { problem: 'is not a number' };
      if (field.integer && !Number.isInteger(value)) return { problem: 'is not a whole number' };
      if ((field.minimum !== undefined && value < field.minimum) || (field.maximum !== undefined && value > field.maximum)) return { problem: `must be ${range(field.minimum, field.maximum)}` };
      return { value };
    }
    case 'boolean': {
      const lower = text.toLowerCase();
      if (lower === 'yes' || lower === 'true') return { value: true };
      if (lower === 'no' || lower === 'false') return { value: false };
      return { problem: 'is not Yes or No' };
    }
    case 'choice': {
      const value = pick(field.options, text);
      return value === undefined ? { problem: `is not one of ${field.options.map((o) => o.label).join(', ')}` } : { value };
    }
    case 'choices': {
      const picked: string[] = [];
      for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
        const value = pick(field.options, part);
        if (value === undefined) return { problem: `"${part}" is not one of ${field.options.map((o) => o.label).join(', ')}` };
        if (!picked.includes(value)) picked.push(value);
      }
      if ((field.minItems !== undefined && picked.length < field.minItems) || (field.maxItems !== undefined && picked.length > field.maxItems)) return { problem: `takes ${range(field.minItems, field.maxItems, ' choices')}` };
      return { value: picked };
    }
  }
}

export interface ElicitationAnswer {
  /** What goes back to the server. */
  readonly result: ElicitResult;
  /** Why it declines, when an answer did not fit the schema. */
  readonly problem?: string;
}

/** The person's answers (by question id) as the form's typed content; an answer that does not fit declines, saying why. */
export function elicitationAnswer(params: ElicitRequestParams, answers: Readonly<Record<string, string>>): ElicitationAnswer {
  if (!isForm(params)) return { result: { action: 'decline' } };
  const fields = fieldsOf(params);
  if (fields.length === 0) return { result: answers[CONFIRM] === ACCEPT ? { action: 'accept', content: {} } : { action: 'decline' } };
  const content: [string, Value][] = [];
  const problems: string[] = [];
  for (const field of fields) {
    const text = (Object.hasOwn(answers, field.id) ? answers[field.id]! : '').trim();
    if (text === '') {
      if (field.default !== undefined) content.push([field.name, field.default]);
      else if (field.required) problems.push(`${field.label} is required`);
      continue;
    }
    const parsed = parse(field, text);
    if ('problem' in parsed) problems.push(`${field.label} ${parsed.problem}`);
    else content.push([field.name, parsed.value]);
  }
  return problems.length > 0 ? { result: { action: 'decline' }, problem: problems.join('; ') } : { result: { action: 'accept', content: contentOf(content) } };
}

/** With nobody to ask (`--approve all`): the schema's defaults, when every required field has one. */
export function elicitationDefaults(params: ElicitRequestParams): ElicitResult {
  if (!isForm(params)) return { action: 'decline' };
  const content: [string, Value][] = [];
  for (const field of fieldsOf(params)) {
    if (field.default !== undefined) content.push([field.name, field.default]);
    else if (field.required) return { action: 'decline' };
  }
  return { action: 'accept', content: contentOf(content) };
}

/** Puts a server's elicitation to the person through the question modal: unanswered (Stop, dismissed) is `cancel`. */
export async function askElicitation(server: string, params: ElicitRequestParams, ask: QuestionAsker, signal: AbortSignal): Promise<ElicitationAnswer> {
  const form = elicitationQuestions(server, params);
  if (!form) return { result: { action: 'decline' }, problem: isForm(params) ? `the form has more than ${MAX_QUESTIONS} fields` : 'Peon does not open pages a server asks for (URL elicitation)' };
  const reply = await ask(form, signal);
  if ('unanswered' in reply) return { result: { action: 'cancel' }, problem: reply.unanswered };
  return elicitationAnswer(params, reply.answers);
}
