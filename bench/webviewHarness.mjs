// Shared by the webview benchmarks (B9–B11): the production bundle, a long
// conversation, and a token stream with some Markdown in it, the same in every run.
import { execFileSync } from 'node:child_process';
import { repoRoot } from '../scripts/paths.mjs';

export function buildProduction() {
  execFileSync(process.execPath, ['esbuild.mjs', '--production', '--quiet'], { cwd: repoRoot, stdio: 'inherit' });
}

/** `count` entries: questions, Markdown answers, and a tool card every tenth row. */
export function conversation(count) {
  return Array.from({ length: count }, (_, i) => {
    if (i % 10 === 9) return { kind: 'tool', id: `e${i}`, name: 'read', args: `{"path":"src/file${i}.ts"}`, status: 'ok', output: `1\tline one of file ${i}\n2\tline two` };
    if (i % 2 === 0) return { kind: 'user', id: `e${i}`, text: `Question ${i}: what does file ${i} do?` };
    return { kind: 'assistant', id: `e${i}`, text: `It **parses** the input of step ${i}:\n\n- reads \`config\`\n- writes the result\n\n\`\`\`ts\nconst x${i} = parse(input);\n\`\`\`` };
  });
}

/**
 * `count` tokens as a model streams them: words, a paragraph break now and then, some
 * emphasis and inline code, and a fenced TypeScript block every 400 tokens (opened, 30
 * tokens of code, closed: the highlighter colours it once, when it closes).
 */
export function tokens(count) {
  return Array.from({ length: count }, (_, i) => {
    if (i % 400 === 150) return '\n\n```ts\nconst';
    if (i % 400 === 180) return '\n```\n\n';
    if (i % 400 > 150 && i % 400 < 180) return i % 10 === 0 ? ';\nconst' : ` word${i % 1000}`;
    return i % 200 === 199 ? '\n\n' : i % 50 === 0 ? ' **bold**' : i % 70 === 0 ? ' `code`' : ` word${i % 1000}`;
  });
}
