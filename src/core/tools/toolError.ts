// Typed tool errors with the stable codes of DESIGN.md §2. Messages are written for
// the model: they say what went wrong and what to do next.

export const TOOL_ERROR_CODES = [
  'invalid_input',
  'unknown_tool',
  'not_found',
  'already_exists',
  'outside_workspace',
  'permission_denied',
  'stale',
  'not_read',
  'not_utf8',
  'binary',
  'too_large',
  'no_match',
  'multiple_matches',
  'timeout',
  'cancelled',
  'io_error',
  'unavailable',
] as const;

export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

export class ToolError extends Error {
  override readonly name = 'ToolError';

  constructor(
    readonly code: ToolErrorCode,
    message: string,
    /** Machine-readable facts for the UI and tests (a count, the current hash, …). */
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}

/** Maps a Node fs error to a ToolError about `what` (a path as the model wrote it). */
export function fsError(error: unknown, what: string): ToolError {
  if (error instanceof ToolError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return new ToolError('not_found', `${what} does not exist. Check the path with list or glob.`);
    case 'EEXIST':
      return new ToolError('already_exists', `${what} already exists.`);
    case 'EACCES':
    case 'EPERM':
      return new ToolError('permission_denied', `The operating system denied access to ${what} (${code}).`);
    case 'EISDIR':
      return new ToolError('invalid_input', `${what} is a directory, not a file. Use list to see its entries.`);
    case 'ENOTDIR':
      return new ToolError('not_found', `A parent of ${what} is a file, not a directory.`);
    case 'ENOSPC':
      return new ToolError('io_error', `No space left on the device while writing ${what}. Nothing was changed.`);
    case 'ELOOP':
      return new ToolError('invalid_input', `${what} is a symbolic link loop.`);
    default: {
      const message = error instanceof Error ? error.message : String(error);
      return new ToolError('io_error', `I/O error on ${what}: ${message}`);
    }
  }
}
