// What hostile markup turned into in the panel: whether any of it ran, loaded or became
// an element or link, under `scope` (a CSS selector), and the text shown there instead.
import type { Page } from 'playwright-core';

const ACTIVE = ['img', 'script', 'svg', 'iframe', 'link', 'video', 'object', '[onerror]', '[onload]'];

export async function inertReport(page: Page, scope: string): Promise<{ pwned: unknown; elements: string[]; links: (string | null)[]; text: string }> {
  return page.locator('body').evaluate(
    (body, { scope, active }) => ({
      pwned: (body.ownerDocument.defaultView as unknown as { __pwned?: number }).__pwned,
      elements: Array.from(body.querySelectorAll([...active.map((a) => `${scope} ${a}`), '[style]:not(.spacer)'].join(', ')), (e: { outerHTML: string }) => e.outerHTML),
      links: Array.from(body.querySelectorAll(`${scope} a`), (a: { getAttribute(name: string): string | null }) => a.getAttribute('href')),
      text: body.querySelector(scope)?.textContent ?? '',
    }),
    { scope, active: ACTIVE },
  );
}
