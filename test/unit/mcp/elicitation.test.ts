// A server's elicitation as askuserquestion's questions and back (DESIGN.md §4 "MCP
// tools"). The schemas are real ones: the conformance suite's SEP-1034 defaults scenario
// (elicitation-sep1034-client-defaults) and server-everything's
// trigger-elicitation-request, which is also run for real over stdio.
import { afterEach, describe, expect, test } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import { askElicitation, elicitationAnswer, elicitationDefaults, elicitationQuestions } from '../../../src/core/mcp/elicitation';
import type { QuestionAsker } from '../../../src/core/tools/contract';
import { Question } from '../../../src/shared/messages';
import { provisionMcpServers } from '../../../scripts/provision-mcp.mjs';

/** The conformance suite's elicitation-sep1034-client-defaults request, as it sends it (no `mode`). */
const sep1034: ElicitRequestFormParams = {
  message: 'Test client default value handling - please accept with defaults',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'User name', default: 'John Doe' },
      age: { type: 'integer', description: 'User age', default: 30 },
      score: { type: 'number', description: 'User score', default: 95.5 },
      status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
      verified: { type: 'boolean', description: 'Verification status', default: true },
    },
    required: [],
  },
};

describe('the SEP-1034 form', () => {
  test('with nobody to ask, it is accepted with every default, each of its type', () => {
    expect(elicitationDefaults(sep1034)).toEqual({ action: 'accept', content: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true } });
  });

  test('a required field without a default declines it; an optional one is left out', () => {
    const props = { ...sep1034.requestedSchema.properties, email: { type: 'string' as const, format: 'email' as const } };
    expect(elicitationDefaults({ ...sep1034, requestedSchema: { type: 'object', properties: props, required: ['email'] } })).toEqual({ action: 'decline' });
    expect(elicitationDefaults({ ...sep1034, requestedSchema: { type: 'object', properties: props } })).toEqual({ action: 'accept', content: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true } });
  });

  test('as questions: labelled with the server, the message first, enums and booleans as choices, defaults said', () => {
    const form = elicitationQuestions('conf', sep1034)!;
    expect(form.agent).toBe('MCP server "conf"');
    for (const q of form.questions) expect(Question.safeParse(q).success).toBe(true);
    expect(form.questions.map((q) => [q.id, q.type, q.options, q.required])).toEqual([
      ['name', 'text', undefined, false],
      ['age', 'text', undefined, false],
      ['score', 'text', undefined, false],
      ['status', 'select', ['active', 'inactive', 'pending'], false],
      ['verified', 'select', ['Yes', 'No'], false],
    ]);
    expect(form.questions[0]!.question).toBe('Test client default value handling - please accept with defaults\n\nname — User name (leave empty for John Doe)');
    expect(form.questions[1]!.question).toBe('age — User age (a whole number; leave empty for 30)');
    expect(form.questions[4]!.question).toBe('verified — Verification status (leave empty for Yes)');
  });

  test('answers come back typed; empty ones take the default', () => {
    expect(elicitationAnswer(sep1034, { name: 'Ada', age: '36', score: '-1.5e2', status: 'pending', verified: 'No' })).toEqual({ result: { action: 'accept', content: { name: 'Ada', age: 36, score: -150, status: 'pending', verified: false } } });
    expect(elicitationAnswer(sep1034, { age: ' ', status: 'PENDING' })).toEqual({ result: { action: 'accept', content: { name: 'John Doe', age: 30, score: 95.5, status: 'pending', verified: true } } });
  });

  test('an answer that does not fit declines, saying which and why', () => {
    const reply = elicitationAnswer(sep1034, { age: '3.5', score: 'lots', status: 'retired', verified: 'maybe' });
    expect(reply.result).toEqual({ action: 'decline' });
    expect(reply.problem).toBe('age is not a whole number; score is not a number; status is not one of active, inactive, pending; verified is not Yes or No');
    expect(elicitationAnswer(sep1034, { age: '0x1e' }).problem).toBe('age is not a number');
  });
});

describe('forms the question modal cannot hold as they are', () => {
  test('a property name that is no question id gets one of its own; the content keys by the name', () => {
    // As a server's JSON arrives: `__proto__` is an own key there.
    const properties = JSON.parse('{"full name": {"type": "string"}, "__proto__": {"type": "string"}, "constructor": {"type": "string", "default": "c"}, "ok_id": {"type": "string"}}');
    const params: ElicitRequestFormParams = { message: 'Who?', requestedSchema: { type: 'object', properties, required: ['full name'] } };
    const form = elicitationQuestions('s', params)!;
    expect(form.questions.map((q) => q.id)).toEqual(['field-1', 'field-2', 'field-3', 'ok_id']);
    const answer = elicitationAnswer(params, JSON.parse('{"field-1": "Ada", "field-2": "p", "__proto__": "not a question"}'));
    expect(answer.result.content).toEqual(JSON.parse('{"full name": "Ada", "__proto__": "p", "constructor": "c"}'));
    expect(Object.getPrototypeOf(answer.result.content)).toBe(Object.prototype);
    expect(elicitationAnswer(params, {})).toEqual({ result: { action: 'decline' }, problem: 'full name is required' });
  });

  test('a form without fields is a confirmation', () => {
    const params: ElicitRequestFormParams = { message: 'Delete the branch?', requestedSchema: { type: 'object', properties: {} } };
    expect(elicitationQuestions('git', params)!.questions).toEqual([{ id: 'confirm', question: 'Delete the branch?', type: 'select', options: ['Accept', 'Decline'], required: true }]);
    expect(elicitationAnswer(params, { confirm: 'Accept' }).result).toEqual({ action: 'accept', content: {} });
    expect(elicitationAnswer(params, { confirm: 'something else' }).result).toEqual({ action: 'decline' });
  });

  test('URL mode, and more fields than the modal holds, are declined without a question', async () => {
    const url = { mode: 'url' as const, message: 'Sign in', elicitationId: 'e1', url: 'https://example.org/login' };
    const many: ElicitRequestFormParams = { message: 'm', requestedSchema: { type: 'object', properties: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}`, { type: 'string' as const }])) } };
    const never: QuestionAsker = () => Promise.reject(new Error('asked'));
    expect(elicitationQuestions('s', url)).toBeUndefined();
    expect(elicitationDefaults(url)).toEqual({ action: 'decline' });
    expect(await askElicitation('s', url, never, new AbortController().signal)).toEqual({ result: { action: 'decline' }, problem: 'Peon does not open pages a server asks for (URL elicitation)' });
    expect(await askElicitation('s', many, never, new AbortController().signal)).toEqual({ result: { action: 'decline' }, problem: 'the form has more than 20 fields' });
  });

  test('unanswered (Stop, or the modal dismissed) is cancel', async () => {
    const gone: QuestionAsker = async () => ({ unanswered: 'the person stopped the turn.' });
    expect(await askElicitation('s', sep1034, gone, new AbortController().signal)).toEqual({ result: { action: 'cancel' }, problem: 'the person stopped the turn.' });
  });
});

describe("server-everything's trigger-elicitation-request, over stdio", () => {
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  test('the person answers the questions; the server gets every field typed, choices by value, defaults filled', async () => {
    const { everything } = provisionMcpServers();
    client = new Client({ name: 'peon-test', version: '0' }, { capabilities: { elicitation: { form: {} } } });
    const asked: Question[][] = [];
    // The person, answering by label as the modal shows the choices.
    const person: QuestionAsker = async ({ agent, questions }) => {
      expect(agent).toBe('MCP server "everything"');
      asked.push([...questions]);
      const byLabel: Record<string, string> = {
        String: 'Ada Lovelace',
        Boolean: 'Yes',
        'String with email format': 'ada@example.org',
        'String with date format': '1815-12-10',
        Integer: '7',
        'Untitled Multiple Select Enum': 'Piano, drums',
        'Titled Single Select Enum': 'Wonder Woman',
        'Titled Multiple Select Enum': 'Salmon',
        'Legacy Titled Single Select Enum': 'Dogs',
      };
      return { answers: Object.fromEntries(questions.map((q) => [q.id, Object.entries(byLabel).find(([label]) => q.question.replace(/^[^]*\n\n/, '').startsWith(`${label} —`))?.[1] ?? ''])) };
    };
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => (await askElicitation('everything', request.params, person, extra.signal)).result);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }));
    const result = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
    const raw = JSON.parse(text.slice(text.indexOf('Raw result: ') + 'Raw result: '.length)) as { action: string; content: Record<string, unknown> };
    expect(raw).toEqual({
      action: 'accept',
      content: {
        name: 'Ada Lovelace',
        check: true,
        firstLine: 'It was a dark and stormy night.',
        email: 'ada@example.org',
        birthdate: '1815-12-10',
        integer: 7,
        number: 3.14,
        untitledSingleSelectEnum: 'Monica',
        untitledMultipleSelectEnum: ['Piano', 'Drums'],
        titledSingleSelectEnum: 'hero-3',
        titledMultipleSelectEnum: ['fish-2'],
        legacyTitledEnum: 'pet-2',
      },
    });
    // Twelve fields, one question each; only the name is required (it has no default).
    expect(asked).toHaveLength(1);
    expect(asked[0]!.filter((q) => q.required).map((q) => q.id)).toEqual(['name']);
  });
});
