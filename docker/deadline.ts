import { UserError } from '../core/errors.js';
import { SandboxError } from './errors.js';

/** Seconds an engine call may go unanswered before it fails: a wedged engine must end a sample, not hang the run. */
export const ENGINE_TIMEOUT_ENV = 'IMPOSSIBLEBENCH_ENGINE_TIMEOUT';
/** Far above what a busy engine takes to create, start or remove a container (seconds, even on 2 cores). */
const DEFAULT_TIMEOUT_S = 300;

/** The deadline of one engine call, read when the call starts (so a test or a long-lived process can change it). */
export function engineTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const text = env[ENGINE_TIMEOUT_ENV]?.trim();
  if (!text) return DEFAULT_TIMEOUT_S * 1000;
  const seconds = Number(text);
  if (!(Number.isFinite(seconds) && seconds > 0))
    throw new UserError(
      `${ENGINE_TIMEOUT_ENV}=${text} is not a number of seconds above 0`,
      `unset it (default ${DEFAULT_TIMEOUT_S}) or set it to e.g. 600`,
    );
  return seconds * 1000;
}

/**
 * Runs one engine call with a deadline: `call` gets a signal to hand to dockerode (`abortSignal`), which ends the
 * request when the deadline passes, and the call fails with a SandboxError (an infrastructure error, never the model's).
 * `times` stretches the deadline for calls that are slow by nature (saving a container as an image).
 */
export async function withEngineDeadline<T>(what: string, call: (signal: AbortSignal) => Promise<T>, times = 1): Promise<T> {
  const ms = engineTimeoutMs() * times;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new SandboxError(`the container engine did not answer in ${+(ms / 1000).toFixed(2)} s (${what}); it may be overloaded or stuck`));
    }, ms);
  });
  try {
    return await Promise.race([call(controller.signal), expired]);
  } finally {
    clearTimeout(timer);
  }
}
