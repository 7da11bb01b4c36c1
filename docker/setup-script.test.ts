import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../scripts/setup-docker.sh', import.meta.url));

describe('scripts/setup-docker.sh', () => {
  it('does nothing where an engine already answers', async () => {
    const r = await execa('bash', [script], { reject: false });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/a Docker engine already answers \(version [\w.+~-]+\); nothing to do/);
  });

  it('stops with a clear message, installing nothing, when DOCKER_HOST points nowhere', async () => {
    const r = await execa('bash', [script], { reject: false, env: { DOCKER_HOST: 'tcp://127.0.0.1:9' } });
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toMatch(/DOCKER_HOST=tcp:\/\/127\.0\.0\.1:9 is set but no engine answers there/);
    expect(r.stdout).not.toMatch(/installing|starting/);
  });
});
