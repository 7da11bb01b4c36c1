import { execa } from 'execa';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../bin/impossiblebench.js', import.meta.url));

export interface Measured {
  seconds: number;
  peakMb: number;
}

/** Runs the CLI in its own process under /usr/bin/time, so the peak resident memory is that command's alone. */
export async function measured(label: string, args: string[]): Promise<Measured> {
  const result = await execa('/usr/bin/time', ['-f', 'BENCH %e %M', 'node', CLI, ...args], { reject: false, stdout: 'ignore' });
  const line = /BENCH ([\d.]+) (\d+)/.exec(result.stderr);
  if (result.exitCode !== 0 || !line) throw new Error(`${label} failed (${result.exitCode}): ${result.stderr.slice(-500)}`);
  const out = { seconds: Number(line[1]), peakMb: Number(line[2]) / 1024 };
  console.log(`${label.padEnd(22)} ${out.seconds.toFixed(1).padStart(6)} s   peak ${out.peakMb.toFixed(0).padStart(5)} MB`);
  return out;
}
