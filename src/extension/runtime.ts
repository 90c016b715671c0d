// The conversation runtime (src/core/conversation/index.ts), its own bundle
// (dist/runtime.js): the tools, the gate with its bash grammar, the agent loop and the
// model SDKs load when the panel first needs them, not with the extension.
import type * as Runtime from '../core/conversation/index';
import { lazyBundle } from './lazyBundle';

export const runtime = lazyBundle<typeof Runtime>('runtime');
