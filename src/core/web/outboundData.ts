// What a request would carry out (SECURITY.md rule 4, egress is exfiltration): a URL or
// search query that holds something shaped like a credential, or a long run of encoded
// data, is data leaving the machine, whoever wrote it — a prompt-injected page can ask
// the model to append the contents of a file to a link. Such a call asks, whatever the
// rules allow, and cannot be granted for the session. This is a net for the obvious
// shapes, not a proof: a host rule that asks (`{"webfetch": "ask"}`) is the whole answer.

/** Credential formats with a recognisable shape: the name says what was found. */
const CREDENTIALS: readonly { readonly what: string; readonly pattern: RegExp }[] = [
  { what: 'an AWS access key', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/ },
  { what: 'a GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})/ },
  { what: 'a GitLab token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/ },
  { what: 'a Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { what: 'an Anthropic or OpenAI API key', pattern: /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/ },
  { what: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { what: 'a Stripe key', pattern: /\b[rs]k_live_[0-9A-Za-z]{20,}/ },
  { what: 'a JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/ },
  { what: 'a private key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----|PRIVATE KEY-----/ },
  { what: 'a password assignment', pattern: /\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token)\s*[:=]\s*\S{6,}/i },
];

/** Longest encoded-looking run a URL may carry unasked: a SHA-256 in hex (64), a 48-character base64 id. */
const MAX_HEX_RUN = 64;
const MAX_BASE64_RUN = 48;
/** Query strings and paths longer than this carry more than a link usually does. */
const MAX_PAYLOAD_CHARS = 1024;
/** A DNS label this long, of mixed letters and digits, is data rather than a name. */
const MAX_LABEL_CHARS = 40;

function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length);
  return bits;
}

const decode = (text: string): string => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
};

/**
 * Why `text` (a URL's parts, or a search query) looks like it carries data out; empty
 * when it does not. `slash`: whether `/` can be part of an encoded run (in a query
 * value; in a path it separates segments).
 */
export function outboundConcerns(text: string, where: string, slash = true): string[] {
  const concerns: string[] = [];
  for (const { what, pattern } of CREDENTIALS) if (pattern.test(text)) concerns.push(`${where} holds what looks like ${what}: it would leave the machine`);
  const hex = text.match(new RegExp(`[0-9a-fA-F]{${MAX_HEX_RUN + 1},}`, 'g')) ?? [];
  // Base64 mixes cases and digits; a slug (`how-to-configure-the-pool`) or a word does not.
  const alphabet = slash ? 'A-Za-z0-9+/_=-' : 'A-Za-z0-9+_=-';
  const encoded = (text.match(new RegExp(`[${alphabet}]{${MAX_BASE64_RUN + 1},}`, 'g')) ?? []).filter((run) => /[a-z]/.test(run) && /[A-Z]/.test(run) && /\d/.test(run) && entropy(run) > 4.5);
  const run = [...hex, ...encoded].sort((a, b) => b.length - a.length)[0];
  if (run) concerns.push(`${where} carries a ${run.length}-character run of encoded data (${run.slice(0, 12)}…): it could be file contents leaving the machine`);
  return concerns;
}

/** The concerns about one URL: its host, path and query, decoded as a server would read them. */
export function urlConcerns(url: URL): string[] {
  const path = decode(url.pathname);
  const query = decode(url.search.slice(1));
  const concerns = [...hostConcerns(url.hostname), ...outboundConcerns(path, 'the path', false), ...outboundConcerns(query, 'the query string')];
  if (path.length + query.length > MAX_PAYLOAD_CHARS) concerns.push(`the path and query are ${path.length + query.length} characters long: more than a link carries, it could be data leaving the machine`);
  return concerns;
}

/** Names are lowercased on the way out, so shapes with case are gone: a long label of letters and digits is what data in a name looks like. */
function hostConcerns(host: string): string[] {
  const label = host.split('.').find((l) => l.length >= MAX_LABEL_CHARS && /\d/.test(l) && /[a-z]/.test(l) && entropy(l) > 3.5);
  return label ? [`the host name has a ${label.length}-character label of letters and digits (${label.slice(0, 12)}…): it could be data leaving the machine in a DNS lookup`] : [];
}
