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

/** A piece that mixes case beyond a leading capital (`aB3xK`), as encoded data does and words do not (`Guide`, `activity`). */
const mixesCase = (piece: string): boolean => /[a-z]/.test(piece) && /[A-Z]/.test(piece.slice(1));

/**
 * A slug (`Engineering-Onboarding-Guide-0123abcd…`, `someone_ai-agents-activity-71345…`):
 * words joined by hyphens, none of them long — unless its mixed-case pieces add up to
 * an encoded run (base64 with a hyphen every few characters is still base64).
 */
const isSlug = (run: string): boolean => {
  const pieces = run.split('-');
  return pieces.length >= 4 && pieces.every((piece) => piece.length <= MAX_LABEL_CHARS) && pieces.filter(mixesCase).join('').length <= MAX_BASE64_RUN;
};

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
  // Base32 and base36 are lowercase: a run of letters and digits longer than a SHA-256 in hex that is not hex.
  const lower = (text.match(new RegExp(`[a-z0-9]{${MAX_HEX_RUN + 1},}`, 'g')) ?? []).filter((r) => /[g-z]/.test(r) && /\d/.test(r));
  const run = [...hex, ...encoded, ...lower].sort((a, b) => b.length - a.length)[0];
  if (run) concerns.push(`${where} carries a ${run.length}-character run of encoded data (${run.slice(0, 12)}…): it could be file contents leaving the machine`);
  return concerns;
}

/**
 * AWS signature parameters carry an access key id by design: a presigned download, not
 * a leak — but only in their real shape, so they cannot carry anything else. SigV4: one
 * `X-Amz-Credential=AKIA…/20240101/us-east-1/s3/aws4_request` beside
 * `X-Amz-Algorithm=AWS4-HMAC-SHA256`, an `X-Amz-Date` and a 64-hex `X-Amz-Signature`.
 * SigV2: `AWSAccessKeyId` beside a 28-character base64 `Signature` and an epoch `Expires`.
 */
function isSignatureParameter(name: string, value: string, all: URLSearchParams): boolean {
  const only = (key: string): string | undefined => {
    const values = [...all.entries()].filter(([k]) => k.toLowerCase() === key.toLowerCase()).map(([, v]) => v);
    return values.length === 1 ? values[0] : undefined;
  };
  if (/^x-amz-credential$/i.test(name)) {
    const scope = /^[A-Z0-9]{20}\/\d{8}\/([a-z0-9-]{1,25})\/([a-z0-9-]{1,20})\/aws4_request$/.exec(value);
    return (
      scope !== null &&
      only('X-Amz-Credential') === value &&
      /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/.test(scope[1]!) &&
      only('X-Amz-Algorithm') === 'AWS4-HMAC-SHA256' &&
      /^\d{8}T\d{6}Z$/.test(only('X-Amz-Date') ?? '') &&
      /^[0-9a-f]{64}$/.test(only('X-Amz-Signature') ?? '')
    );
  }
  return name === 'AWSAccessKeyId' && only('AWSAccessKeyId') === value && /^[A-Z0-9]{20}$/.test(value) && /^[A-Za-z0-9+/]{27}=$/.test(only('Signature') ?? '') && /^\d{9,11}$/.test(only('Expires') ?? '');
}

/** The concerns about one URL: its host, path and each query parameter, decoded as a server would read them. */
export function urlConcerns(url: URL): string[] {
  const path = lenientDecode(url.pathname);
  const concerns = [...hostConcerns(url.hostname), ...outboundConcerns(path, 'the path', false)];
  const raw = url.search.slice(1);
  const params = new URLSearchParams(raw);
  // Each parameter on its own (split where URLSearchParams splits: `&`), so `=` does not join a name to its value.
  for (const part of raw.split('&')) {
    const at = part.indexOf('=');
    const name = lenientDecode(at < 0 ? part : part.slice(0, at));
    const value = at < 0 ? '' : lenientDecode(part.slice(at + 1));
    if (isSignatureParameter(name, value, params)) continue;
    for (const concern of [...outboundConcerns(name, 'the query string'), ...outboundConcerns(value, 'the query string'), ...outboundConcerns(`${name}=${value}`, 'the query string').filter((c) => c.includes('assignment'))]) {
      if (!concerns.includes(concern)) concerns.push(concern);
    }
  }
  // The whole query too, for a credential that spans parameters; signature parameters in their real shape aside.
  const query = lenientDecode(raw);
  const unsigned = lenientDecode(raw.split('&').filter((part) => {
    const at = part.indexOf('=');
    return at < 0 || !isSignatureParameter(lenientDecode(part.slice(0, at)), lenientDecode(part.slice(at + 1)), params);
  }).join('&'));
  for (const { what, pattern } of CREDENTIALS) {
    const concern = `the query string holds what looks like ${what}: it would leave the machine`;
    if (pattern.test(unsigned) && !concerns.includes(concern)) concerns.push(concern);
  }
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
/** …and those of Google's own search pages (`www.google.com`, `google.co.uk`, …; not `google.github.io`). */
const GOOGLE_TRACKING = /^(?:ved|ei|sxsrf|gs_lp|gs_lcrp|gs_ssp|aqs|sca_esv|sca_upv|uact|oq|sourceid|ie)$/i;
const GOOGLE_HOST = /^(?:www\.)?google\.(?:com|[a-z]{2}|co\.[a-z]{2}|com\.[a-z]{2})$/i;

/**
 * The URL without its click-tracking parameters, and their names (the result says they
 * were dropped). The other parameters stay byte for byte: the raw `&`-separated pieces
 * are spliced, never re-serialised (a signed query, `flag` without `=`, `%20` and `~`
 * reach the server as written).
 */
export function withoutTracking(url: URL): { url: URL; removed: string[] } {
  const google = GOOGLE_HOST.test(url.hostname);
  const removed: string[] = [];
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((part) => {
      const at = part.indexOf('=');
      const name = lenientDecode(at < 0 ? part : part.slice(0, at));
      const tracking = part !== '' && (TRACKING.test(name) || (google && GOOGLE_TRACKING.test(name)));
      if (tracking && !removed.includes(name)) removed.push(name);
      return !tracking;
    });
  if (removed.length === 0) return { url, removed };
  const clean = new URL(url.href);
  clean.search = kept.length > 0 && kept.some((part) => part !== '') ? `?${kept.join('&')}` : '';
  return { url: clean, removed };
}
