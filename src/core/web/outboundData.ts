// What a request would carry out (SECURITY.md rule 4, egress is exfiltration): a URL or
// search query that holds something shaped like a credential, or a long run of encoded
// data, is data leaving the machine, whoever wrote it — a prompt-injected page can ask
// the model to append the contents of a file to a link. Such a call asks, whatever the
// rules allow, and cannot be granted for the session. This is a net for the obvious
// shapes, not a proof (a secret split across parameters, or re-encoded, gets through): a
// rule that asks (`{"webfetch": "ask"}`) is the whole answer.

/** Credential formats with a recognisable shape: the name says what was found. */
const CREDENTIALS: readonly { readonly what: string; readonly pattern: RegExp }[] = [
  { what: 'an AWS access key', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/ },
  { what: 'a GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})/ },
  { what: 'a GitLab token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/ },
  { what: 'a Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { what: 'an Anthropic or OpenAI API key', pattern: /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/ },
  { what: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { what: 'a Stripe key', pattern: /\b[rs]k_(?:live|test)_[0-9A-Za-z]{16,}/ },
  { what: 'a JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/ },
  { what: 'a private key', pattern: /PRIVATE KEY-----/ },
  // `password=…`, `DB_PASSWORD=…`, `POSTGRES_PASSWORD: …`, `GITHUB_TOKEN=…` (a search for `password= x` is not one)
  { what: 'a secret assignment', pattern: /(?:^|[^a-z0-9])[a-z0-9_-]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)[a-z0-9_-]*(?:=|:\s*)[^\s&]{6,}/i },
  { what: 'a connection string with a password', pattern: /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i },
];

/** Longest encoded-looking run a URL may carry unasked: a SHA-256 in hex (64), a 48-character base64 id. */
const MAX_HEX_RUN = 64;
const MAX_BASE64_RUN = 48;
/** Query strings and paths longer than this carry more than a link usually does. */
const MAX_PAYLOAD_CHARS = 1024;
/** A DNS label piece this long, of mixed letters and digits, is data rather than a name. */
const MAX_LABEL_CHARS = 40;

function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length);
  return bits;
}

/**
 * Percent-escapes decoded as a server reads them: every run of valid `%XX` decoded
 * (as UTF-8, else byte by byte), whatever else the text holds — a stray `%` does not
 * turn decoding off — and `+` as a space.
 */
export function lenientDecode(text: string): string {
  return text.replace(/\+/g, ' ').replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return Buffer.from(run.replace(/%/g, ''), 'hex').toString('latin1');
    }
  });
}

/** A slug (`Engineering-Onboarding-Guide-0123abcd…`, `someone_ai-agents-activity-71345…`): words joined by hyphens, none of them long. */
const isSlug = (run: string): boolean => (run.match(/-/g) ?? []).length >= 3 && run.split('-').every((piece) => piece.length <= MAX_LABEL_CHARS);

/**
 * Why `text` (a decoded part of a URL, or a search query) looks like it carries data
 * out; empty when it does not. `slash`: whether `/` can be part of an encoded run (in a
 * query value; in a path it separates segments).
 */
export function outboundConcerns(text: string, where: string, slash = true): string[] {
  const concerns: string[] = [];
  for (const { what, pattern } of CREDENTIALS) if (pattern.test(text)) concerns.push(`${where} holds what looks like ${what}: it would leave the machine`);
  const hex = text.match(new RegExp(`[0-9a-fA-F]{${MAX_HEX_RUN + 1},}`, 'g')) ?? [];
  // Base64 mixes cases and digits; a slug or a word does not.
  const alphabet = slash ? 'A-Za-z0-9+/_-' : 'A-Za-z0-9+_-';
  const encoded = (text.match(new RegExp(`[${alphabet}]{${MAX_BASE64_RUN + 1},}={0,2}`, 'g')) ?? []).filter((run) => !isSlug(run) && /[a-z]/.test(run) && /[A-Z]/.test(run) && /\d/.test(run) && entropy(run) > 4.5);
  const run = [...hex, ...encoded].sort((a, b) => b.length - a.length)[0];
  if (run) concerns.push(`${where} carries a ${run.length}-character run of encoded data (${run.slice(0, 12)}…): it could be file contents leaving the machine`);
  return concerns;
}

/**
 * AWS signature parameters carry an access key id by design (SigV4's
 * `X-Amz-Credential=AKIA…/20240101/us-east-1/s3/aws4_request`, SigV2's
 * `AWSAccessKeyId` beside its `Signature`): a presigned download, not a leak.
 */
function isSignatureParameter(name: string, value: string, all: URLSearchParams): boolean {
  if (/^x-amz-credential$/i.test(name)) return /^[A-Z0-9]{20}\/\d{8}\/[a-z0-9-]+\/[a-z0-9-]+\/aws4_request$/.test(value);
  return name === 'AWSAccessKeyId' && /^[A-Z0-9]{20}$/.test(value) && all.has('Signature') && all.has('Expires');
}

/** The concerns about one URL: its host, path and each query parameter, decoded as a server would read them. */
export function urlConcerns(url: URL): string[] {
  const path = lenientDecode(url.pathname);
  const concerns = [...hostConcerns(url.hostname), ...outboundConcerns(path, 'the path', false)];
  const raw = url.search.slice(1);
  const params = new URLSearchParams(raw);
  // Each parameter on its own, so `=` does not join a name to its value; the whole query too, for what spans them.
  for (const part of raw.split(/[&;]/)) {
    const at = part.indexOf('=');
    const name = lenientDecode(at < 0 ? part : part.slice(0, at));
    const value = at < 0 ? '' : lenientDecode(part.slice(at + 1));
    if (isSignatureParameter(name, value, params)) continue;
    for (const concern of [...outboundConcerns(name, 'the query string'), ...outboundConcerns(value, 'the query string'), ...outboundConcerns(`${name}=${value}`, 'the query string').filter((c) => c.includes('assignment'))]) {
      if (!concerns.includes(concern)) concerns.push(concern);
    }
  }
  const query = lenientDecode(raw);
  if (path.length + query.length > MAX_PAYLOAD_CHARS) concerns.push(`the path and query are ${path.length + query.length} characters long: more than a link carries, it could be data leaving the machine`);
  return concerns;
}

/**
 * Names are lowercased on the way out, so shapes with case are gone: a long piece of a
 * label (between hyphens) of letters and digits is what data in a name looks like.
 */
function hostConcerns(host: string): string[] {
  const piece = host
    .split(/[.-]/)
    .find((p) => p.length >= MAX_LABEL_CHARS && /\d/.test(p) && /[a-z]/.test(p) && entropy(p) > 3.5);
  return piece ? [`the host name has a ${piece.length}-character label of letters and digits (${piece.slice(0, 12)}…): it could be data leaving the machine in a DNS lookup`] : [];
}

/** Parameters that only track the click (they never change the page): removed before the request, and so never a way out. */
const TRACKING = /^(?:utm_[a-z_]+|gclid|dclid|gbraid|wbraid|fbclid|msclkid|mc_cid|mc_eid|igshid|yclid|_ga|_gl|_hsenc|_hsmi|mkt_tok)$/i;
/** …and those of Google's own search pages. */
const GOOGLE_TRACKING = /^(?:ved|ei|sxsrf|gs_lp|gs_lcrp|gs_ssp|aqs|sca_esv|sca_upv|uact|oq|sourceid|ie)$/i;

/** The URL without its click-tracking parameters, and their names (the result says they were dropped). */
export function withoutTracking(url: URL): { url: URL; removed: string[] } {
  const google = /(^|\.)google\.[a-z.]+$/i.test(url.hostname);
  const removed = [...new Set([...url.searchParams.keys()].filter((k) => TRACKING.test(k) || (google && GOOGLE_TRACKING.test(k))))];
  if (removed.length === 0) return { url, removed };
  const clean = new URL(url.href);
  for (const name of removed) clean.searchParams.delete(name);
  return { url: clean, removed };
}
