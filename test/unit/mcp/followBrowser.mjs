#!/usr/bin/env node
// A stand-in for the person's browser, for BROWSER=… in tests: it opens the page it is
// given (the URL, its last argument) and, as a person who clicks "Allow" would be, follows
// the page's redirect — to Peon's loopback receiver, for an OAuth authorization page.
const url = process.argv[process.argv.length - 1];
const page = await fetch(url, { redirect: 'manual' });
await page.body?.cancel();
const location = page.headers.get('location');
if (location) {
  const back = await fetch(new URL(location, url));
  await back.body?.cancel();
}
