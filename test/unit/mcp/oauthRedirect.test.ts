// The loopback end of an OAuth authorization: only the redirect of the authorization it
// expects (its state) brings a code; everything else is turned away and changes nothing.
import { afterEach, expect, test } from 'vitest';
import { redirectReceiver, type RedirectReceiver } from '../../../src/core/mcp/oauthRedirect';

let receiver: RedirectReceiver | undefined;
afterEach(() => receiver?.close());

const visit = async (url: string): Promise<{ status: number; text: string }> => {
  const res = await fetch(url);
  return { status: res.status, text: await res.text() };
};

test('the redirect with the expected state brings the code; a page says so', async () => {
  receiver = await redirectReceiver();
  expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  const code = receiver.expect('s-1');
  const page = await visit(`${receiver.url}?code=c-1&state=s-1`);
  expect(await code).toBe('c-1');
  expect(page.status).toBe(200);
  expect(page.text).toContain('Peon is authorized');
  // Once: the same redirect again is not expected any more.
  expect((await visit(`${receiver.url}?code=c-1&state=s-1`)).status).toBe(400);
});

test('another state, no state, another path: turned away, and the authorization still waits', async () => {
  receiver = await redirectReceiver();
  const code = receiver.expect('right');
  expect((await visit(`${receiver.url}?code=planted&state=wrong`)).status).toBe(400);
  expect((await visit(`${receiver.url}?code=planted`)).status).toBe(400);
  expect((await visit(receiver.url.replace('/callback', '/other?code=planted&state=right'))).status).toBe(404);
  await visit(`${receiver.url}?code=real&state=right`);
  expect(await code).toBe('real');
});

test("the authorization server's refusal rejects with its words, shown escaped", async () => {
  receiver = await redirectReceiver();
  const code = receiver.expect('s');
  const page = await visit(`${receiver.url}?error=access_denied&error_description=${encodeURIComponent('<b>no</b>')}&state=s`);
  await expect(code).rejects.toThrow('The authorization server refused: access_denied: <b>no</b>');
  expect(page.status).toBe(400);
  expect(page.text).toContain('&#60;b&#62;no&#60;/b&#62;');
  expect(page.text).not.toContain('<b>');
});

test('a newer authorization replaces the one before; cancel and close reject the one waiting', async () => {
  receiver = await redirectReceiver();
  const first = receiver.expect('a');
  const second = receiver.expect('b');
  await expect(first).rejects.toThrow('A newer authorization replaced this one.');
  expect((await visit(`${receiver.url}?code=x&state=a`)).status).toBe(400);
  receiver.cancel(new Error('stopped'));
  await expect(second).rejects.toThrow('stopped');
  const third = receiver.expect('c');
  receiver.close();
  await expect(third).rejects.toThrow('The authorization was closed.');
  await expect(fetch(receiver.url)).rejects.toThrow();
  receiver = undefined;
});

test('a port that is taken is refused, so the caller can choose another', async () => {
  receiver = await redirectReceiver();
  const port = Number(new URL(receiver.url).port);
  await expect(redirectReceiver(port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
});
