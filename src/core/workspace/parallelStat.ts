// lstat of many paths at once, half of them in a worker thread (PERF.md B15, B19): a scan of a
// folder that did not change is one lstat per file and little else, and two cores do
// them in about half the time — git's status does the same (core.preloadIndex). The
// worker is one small script kept for the process, unreferenced (it never keeps the CLI
// alive); where it cannot start or fails, every lstat is made here, as before.
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';

/**
 * What one lstat found, as numbers: `kind` first (0 missing, 1 file, 2 folder, 3 other,
 * 4 failed: EACCES, ELOOP and the like, which say nothing of whether the path is there).
 */
export const FIELDS = 7;
export const At = { Kind: 0, Ino: 1, Size: 2, CtimeMs: 3, Mode: 4, Uid: 5, Gid: 6 } as const;
export const Kind = { Missing: 0, File: 1, Directory: 2, Other: 3, Failed: 4 } as const;

/** Below this many paths the worker's round trip costs more than it saves. */
const WORKER_FROM = 512;

/** The worker: the same numbers for the paths it is sent (the script is this file's `fill`, in plain JavaScript). */
const SCRIPT = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const options = { throwIfNoEntry: false };
parentPort.on('message', ({ id, paths }) => {
  const out = new Float64Array(paths.length * ${FIELDS});
  for (let i = 0; i < paths.length; i++) {
    let s;
    const o = i * ${FIELDS};
    try { s = fs.lstatSync(paths[i], options); } catch (e) { if (e.code !== 'ENOTDIR') out[o] = 4; continue; }
    if (!s) continue;
    out[o] = s.isFile() ? 1 : s.isDirectory() ? 2 : 3;
    out[o + 1] = s.ino; out[o + 2] = s.size; out[o + 3] = s.ctimeMs; out[o + 4] = s.mode; out[o + 5] = s.uid; out[o + 6] = s.gid;
  }
  parentPort.postMessage({ id, out }, [out.buffer]);
});
`;

const NO_THROW = { throwIfNoEntry: false } as const;

/** Fills `out` from `from` on with the lstat of each of `paths` (what the worker does). */
function fill(paths: readonly string[], out: Float64Array, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    let s: fs.Stats | undefined;
    const o = i * FIELDS;
    try {
      s = fs.lstatSync(paths[i]!, NO_THROW);
    } catch (error) {
      // Below a file: not there. Anything else (EACCES, ELOOP) says nothing of whether it is.
      if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') out[o + At.Kind] = Kind.Failed;
      continue;
    }
    if (!s) continue;
    out[o + At.Kind] = s.isFile() ? Kind.File : s.isDirectory() ? Kind.Directory : Kind.Other;
    out[o + At.Ino] = s.ino;
    out[o + At.Size] = s.size;
    out[o + At.CtimeMs] = s.ctimeMs;
    out[o + At.Mode] = s.mode;
    out[o + At.Uid] = s.uid;
    out[o + At.Gid] = s.gid;
  }
}

let worker: Worker | undefined;
let broken = false;
let nextId = 0;
const waiting = new Map<number, { resolve: (out: Float64Array) => void; reject: (error: Error) => void }>();

function theWorker(): Worker | undefined {
  if (broken) return undefined;
  if (worker) return worker;
  try {
    const started = new Worker(SCRIPT, { eval: true });
    started.unref();
    started.on('message', ({ id, out }: { id: number; out: Float64Array }) => {
      waiting.get(id)?.resolve(out);
      waiting.delete(id);
      if (waiting.size === 0) started.unref();
    });
    const fail = (error: Error): void => {
      broken = true;
      worker = undefined;
      for (const w of waiting.values()) w.reject(error);
      waiting.clear();
    };
    started.on('error', fail);
    started.on('exit', (code) => fail(new Error(`the stat worker exited (${code})`)));
    worker = started;
  } catch {
    broken = true;
  }
  return worker;
}

function inWorker(paths: readonly string[]): Promise<Float64Array> | undefined {
  const w = theWorker();
  if (!w) return undefined;
  const id = nextId++;
  const reply = new Promise<Float64Array>((resolve, reject) => waiting.set(id, { resolve, reject }));
  w.ref(); // a reply pending keeps the process for it
  w.postMessage({ id, paths });
  return reply;
}

/**
 * The lstat of each of `paths`, FIELDS numbers each (see At). `between`: called between
 * slices of the work done here (a scan yields to the event loop there).
 */
export async function lstatMany(paths: readonly string[], between?: () => Promise<void> | void): Promise<Float64Array> {
  const out = new Float64Array(paths.length * FIELDS);
  const half = paths.length >= WORKER_FROM ? Math.ceil(paths.length / 2) : paths.length;
  const theirs = half < paths.length ? inWorker(paths.slice(half)) : undefined;
  const mine = theirs ? half : paths.length;
  const SLICE = 1024;
  for (let from = 0; from < mine; from += SLICE) {
    fill(paths, out, from, Math.min(mine, from + SLICE));
    await between?.();
  }
  if (theirs) {
    try {
      out.set(await theirs, half * FIELDS);
    } catch {
      fill(paths, out, half, paths.length); // the worker failed: the rest here
    }
  }
  return out;
}
