import type { Browser, Page } from 'playwright-core';

export interface StandaloneWebview {
  readonly page: Page;
  extraRequests(): string[];
  readonly violations: string[];
  countMutations(selector: string): Promise<void>;
  mutations(): Promise<number>;
  send(messages: unknown): Promise<void>;
}

export function openStandaloneWebview(browser: Browser, size?: { width?: number; height?: number }): Promise<StandaloneWebview>;
