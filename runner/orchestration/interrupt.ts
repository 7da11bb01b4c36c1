/** The reason a run's signal carries when the user stopped it. */
export class Interrupted extends Error {
  constructor(readonly signalName: NodeJS.Signals) {
    super(`interrupted by ${signalName}`);
    this.name = 'Interrupted';
  }
}

export interface InterruptHandle {
  /** Aborted on the first SIGINT or SIGTERM, with an `Interrupted` reason. */
  readonly signal: AbortSignal;
  /** Stops listening; the process's default signal handling comes back. */
  dispose(): void;
}

export interface InterruptOptions {
  /** Told once, on the first signal (e.g. "stopping; Ctrl-C again to quit at once"). */
  onFirst?: (signal: NodeJS.Signals) => void;
  /** Exit code for the second signal; 130 is the shell's code for Ctrl-C. */
  exitCode?: number;
}

/**
 * The first Ctrl-C or SIGTERM asks the run to stop cleanly (no new samples, running ones
 * cancelled, their containers removed); a second one exits at once, leaving the cleanup to the
 * next run or `impossiblebench cleanup`.
 */
export function handleInterrupts(options: InterruptOptions = {}): InterruptHandle {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (!controller.signal.aborted) {
      controller.abort(new Interrupted(signal));
      options.onFirst?.(signal);
      return;
    }
    process.stderr.write('\nimpossiblebench: second interrupt, exiting now; `impossiblebench cleanup` removes what is left\n');
    process.exit(options.exitCode ?? 130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
