// In-page halves of test/e2e/accessibility.e2e.test.ts, run in the chat webview's content
// frame by `frame.evaluate` (plain JS: the repository's TypeScript has no DOM library). Each
// function is sent as its source text, so it uses nothing from this module's scope.
/* global window, document */

/** axe-core (already evaluated in the frame) over the whole document; the violations, trimmed for a report. */
export async function runAxe(options) {
  const result = await window.axe.run(document, options);
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(' '), html: n.html.slice(0, 200), summary: (n.failureSummary ?? '').slice(0, 300) })),
  }));
}

/**
 * Lists the controls (what a person can operate, when shown, enabled and not behind a modal),
 * starts recording what gets the focus, and focuses the first control; returns how many there are.
 */
export function startKeyboardWalk() {
  const selector = 'button, a[href], input, select, textarea, summary, [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';
  const controls = Array.from(document.querySelectorAll(selector)).filter((el) => !el.disabled && !el.closest('[inert]') && el.checkVisibility({ visibilityProperty: true }));
  const reached = new Set();
  window.__peonWalk = { controls, reached };
  document.addEventListener('focusin', (event) => reached.add(event.target), true);
  // A radio group is one Tab stop: its checked radio, or its first.
  const first = controls.find((el) => !(el.type === 'radio' && !el.checked && document.querySelector(`input[name="${el.name}"]:checked`)));
  first?.focus();
  if (first) reached.add(first);
  return controls.length;
}

/** The controls the walk never focused (a radio group counts once any of its radios was), described for a report. */
export function unreachedControls() {
  const { controls, reached } = window.__peonWalk;
  const radioReached = (el) => el.type === 'radio' && [...reached].some((r) => r.type === 'radio' && r.name === el.name);
  return controls.filter((el) => !reached.has(el) && !radioReached(el)).map((el) => `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 60)}"`);
}
