import { execa, type ResultPromise } from 'execa';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../bin/impossiblebench.js', import.meta.url));

/** Starts `impossiblebench view` on any free port and waits for the URL it prints. */
export async function startView(storePath: string, ...flags: string[]): Promise<{ url: string; proc: ResultPromise }> {
  const proc = execa('node', [CLI, 'view', storePath, '--port', '0', ...flags], { reject: false, buffer: false });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const found = /(http:\/\/\S+)/.exec(seen);
      if (found) resolve(found[1]!);
    });
    void proc.then((r) => reject(new Error(`view exited ${r.exitCode}: ${String(r.stderr)}`)));
  });
  return { url, proc };
}
