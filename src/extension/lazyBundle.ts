// A bundle next to this one (dist/<name>.js), required on first use: activation loads
// only what registers the panel and the commands (PERF.md B12). The path is computed at
// run time, so the bundler leaves the require to Node.
import path from 'node:path';

export function lazyBundle<T>(name: string): () => T {
  let loaded: T | undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return () => (loaded ??= require(path.join(__dirname, `${name}.js`)) as T);
}
