import type { Browser, Page } from 'playwright-core';

export interface StandaloneWebview {
  readonly page: Page;
  extraRequests(): string[];
  readonly violations: string[];
  countMutations(selector: string): Promise<void>;
  mutations(): Promise<number>;
  posted(): Promise<unknown[]>;
  send(messages: unknown): Promise<void>;
}

export function openStandaloneWebview(browser: Browser, options?: { width?: number; height?: number; init?: unknown }): Promise<StandaloneWebview>;
