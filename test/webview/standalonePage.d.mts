import type { Browser, Page } from 'playwright-core';

export interface StandaloneWebview {
  readonly page: Page;
  extraRequests(): string[];
  /** The bundle files requested, by name, in order (`highlight.js` only once a code block needed it). */
  bundleRequests(): string[];
  readonly violations: string[];
  countMutations(selector: string): Promise<void>;
  mutations(): Promise<number>;
  posted(): Promise<unknown[]>;
  send(messages: unknown): Promise<void>;
}

export function openStandaloneWebview(browser: Browser, options?: { width?: number; height?: number; init?: unknown }): Promise<StandaloneWebview>;
