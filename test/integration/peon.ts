import * as vscode from 'vscode';
import type { PeonApi } from '../../src/extension/extension';

export const EXTENSION_ID = 'peon.peon';

export function peonExtension(): vscode.Extension<PeonApi> {
  const extension = vscode.extensions.getExtension<PeonApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded in this extension host`);
  return extension;
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
