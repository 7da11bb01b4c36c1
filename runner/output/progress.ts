import cliProgress from 'cli-progress';
import type { Outcome } from '../../core/record.js';

/** Running totals of a run, shown by the progress display and the final summary. */
export class Tally {
  readonly counts: Record<Outcome, number> = { passed: 0, failed: 0, evaded: 0, error: 0 };
  costUsd = 0;
  /** Samples that reported no cost (unknown price): the cost shown is then a lower bound. */
  unknownCost = 0;
  /** Samples already finished before this process started (a resumed run). */
  readonly startedWith: number;
  done: number;
  readonly startTime = Date.now();

  constructor(
    readonly total: number,
    alreadyDone = 0,
  ) {
    this.startedWith = alreadyDone;
    this.done = alreadyDone;
  }

  /** Counts a stored sample; `final` is false for an error that will be tried again. */
  add(outcome: Outcome, costUsd: number | null, final = true): void {
    if (costUsd === null) this.unknownCost++;
    else this.costUsd += costUsd;
    if (!final) return;
    this.counts[outcome]++;
    this.done++;
  }

  /** Counts a sample stored before this process started (`done` already includes it). */
  restore(outcome: Outcome, costUsd: number | null): void {
    if (costUsd === null) this.unknownCost++;
    else this.costUsd += costUsd;
    this.counts[outcome]++;
  }

  /** Seconds left at the pace of this process, or undefined before there is a pace. */
  etaSeconds(now = Date.now()): number | undefined {
    const doneHere = this.done - this.startedWith;
    if (doneHere <= 0) return undefined;
    const perSample = (now - this.startTime) / 1000 / doneHere;
    return Math.max(0, Math.round(perSample * (this.total - this.done)));
  }
}

export function formatDuration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export function formatCost(tally: Tally): string {
  return `$${tally.costUsd.toFixed(tally.costUsd < 1 ? 4 : 2)}${tally.unknownCost > 0 ? '+?' : ''}`;
}

/** `passed 3 failed 8 evaded 1 error 0`: the counts by outcome in a fixed order. */
export function formatCounts(tally: Tally): string {
  const c = tally.counts;
  return `passed ${c.passed} failed ${c.failed} evaded ${c.evaded} error ${c.error}`;
}

/** One plain status line, for logs and terminals that are not a TTY. */
export function statusLine(tally: Tally, now = Date.now()): string {
  return `[${tally.done}/${tally.total}] ${formatCounts(tally)} | cost ${formatCost(tally)} | eta ${formatDuration(tally.etaSeconds(now))}`;
}

export interface ProgressDisplay {
  /** Redraws after a change in the tally. */
  update(): void;
  /** A message above the bar (or on its own line). */
  note(message: string): void;
  stop(): void;
}

export interface ProgressOptions {
  stream?: NodeJS.WriteStream | NodeJS.WritableStream;
  /** Force the plain form even on a TTY. */
  plain?: boolean;
  /** Seconds between plain lines. */
  intervalS?: number;
}

/**
 * A progress bar with counts by outcome, ETA and cost on a TTY; elsewhere a plain line every
 * few seconds (and at the end), so CI logs show where a long run is without a flood of lines.
 */
export function createProgress(tally: Tally, options: ProgressOptions = {}): ProgressDisplay {
  const stream = options.stream ?? process.stderr;
  const tty = !options.plain && (stream as NodeJS.WriteStream).isTTY === true;
  return tty ? barProgress(tally, stream as NodeJS.WriteStream) : plainProgress(tally, stream, (options.intervalS ?? 5) * 1000);
}

function barProgress(tally: Tally, stream: NodeJS.WriteStream): ProgressDisplay {
  const payload = () => ({ counts: formatCounts(tally), cost: formatCost(tally), left: formatDuration(tally.etaSeconds()) });
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: '{bar} {value}/{total} | {counts} | cost {cost} | eta {left}',
      hideCursor: true,
      barsize: 24,
      fps: 5,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(tally.total, tally.done, payload());
  // The ETA needs redrawing while samples run, not only when one ends.
  const timer = setInterval(() => bar.update(tally.done, payload()), 1000);
  timer.unref();
  return {
    update: () => bar.update(tally.done, payload()),
    note: (message) => {
      // Clear the bar's line, print, and let the next redraw put the bar back below.
      stream.write(`\r\x1b[K${message}\n`);
      bar.update(tally.done, payload());
    },
    stop: () => {
      clearInterval(timer);
      bar.update(tally.done, payload());
      bar.stop();
    },
  };
}

function plainProgress(tally: Tally, stream: NodeJS.WritableStream, intervalMs: number): ProgressDisplay {
  let lastLine = '';
  const print = () => {
    const line = statusLine(tally);
    lastLine = line;
    stream.write(`${line}\n`);
  };
  print();
  const timer = setInterval(() => {
    if (statusLine(tally) !== lastLine || tally.done < tally.total) print();
  }, intervalMs);
  timer.unref();
  return {
    update: () => {},
    note: (message) => stream.write(`${message}\n`),
    stop: () => {
      clearInterval(timer);
      print();
    },
  };
}
