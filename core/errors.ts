/** An error caused by the user's input or machine: printed as one line, never as a stack trace. */
export class UserError extends Error {
  constructor(
    message: string,
    /** The one command or step that fixes it, when there is one. */
    readonly fix?: string,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

/** Formats any error for the terminal: user errors as one line (plus the fix), others with their message. */
export function formatError(err: unknown): string {
  if (err instanceof UserError) return err.fix ? `${err.message}\n  fix: ${err.fix}` : err.message;
  if (err instanceof Error) return process.env.IMPOSSIBLEBENCH_DEBUG ? (err.stack ?? err.message) : err.message;
  return String(err);
}
