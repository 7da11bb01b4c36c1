import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UserError } from '../core/errors.js';
import { candidateEndpoints, findEngine, noEngineError, probeEndpoint } from './engine.js';

const bin = fileURLToPath(new URL('../bin/impossiblebench.js', import.meta.url));

describe('finding the container engine', () => {
  it('uses only DOCKER_HOST when it is set, else the default, rootless and podman sockets', () => {
    expect(candidateEndpoints({ DOCKER_HOST: 'tcp://10.0.0.1:2375' }).map((e) => e.label)).toEqual(['DOCKER_HOST=tcp://10.0.0.1:2375']);
    const labels = candidateEndpoints({ XDG_RUNTIME_DIR: '/run/user/1234' }).map((e) => e.label);
    expect(labels[0]).toBe('/var/run/docker.sock');
    expect(labels).toContain('/run/user/1234/docker.sock');
    expect(labels).toContain('/run/user/1234/podman/podman.sock');
    expect(labels).toContain('/run/podman/podman.sock');
  });

  it('finds the running engine and its version', async () => {
    const { found } = await findEngine();
    expect(found?.version).toMatch(/^\d+\.\d+/);
    expect(found?.apiVersion).toMatch(/^\d+\.\d+$/);
  });

  it('explains an engine that does not answer in one line, with the fix', async () => {
    const { found, tried } = await findEngine({ DOCKER_HOST: 'tcp://127.0.0.1:9' });
    expect(found).toBeUndefined();
    const err = noEngineError(tried);
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toBe('no container engine answers at DOCKER_HOST=tcp://127.0.0.1:9 (connection refused)');
    expect(err.fix).toMatch(/unset DOCKER_HOST/);
    expect(err.message).not.toContain('\n');
  });

  it('reads unix, tcp and TLS forms of DOCKER_HOST from the given environment', () => {
    expect(candidateEndpoints({ DOCKER_HOST: 'unix:///tmp/x.sock' })[0]!.options).toEqual({ socketPath: '/tmp/x.sock' });
    expect(candidateEndpoints({ DOCKER_HOST: 'tcp://10.1.2.3:2375' })[0]!.options).toMatchObject({
      protocol: 'http',
      host: '10.1.2.3',
      port: '2375',
    });
    expect(candidateEndpoints({ DOCKER_HOST: 'tcp://10.1.2.3:2376' })[0]!.options).toMatchObject({ protocol: 'https' });
    expect(() => candidateEndpoints({ DOCKER_HOST: 'tcp://10.1.2.3:2376', DOCKER_CERT_PATH: '/no/such/certs' })).toThrow(UserError);
  });

  it('reports a socket path that is missing or not a socket without trying it', async () => {
    const missing = await probeEndpoint({ label: '/nowhere.sock', kind: 'docker', options: { socketPath: '/nowhere.sock' } });
    expect(missing).toMatchObject({ ok: false, error: 'no socket there' });
    const notSocket = await probeEndpoint({ label: '/etc/hostname', kind: 'docker', options: { socketPath: '/etc/hostname' } });
    expect(notSocket).toMatchObject({ ok: false, error: 'the path exists but is not a socket' });
  });
});

describe('impossiblebench doctor (the built CLI)', () => {
  it('exits 0 with a running engine and the sandbox image present', async () => {
    const r = await execa('node', [bin, 'doctor'], { reject: false });
    expect(r.stdout).toMatch(/^ok +container engine: .+ at /m);
    expect(r.stdout).toMatch(/^ok +image impossiblebench\/python:3\.11: present/m);
    expect(r.exitCode).toBe(0);
  });

  it('exits non-zero with DOCKER_HOST pointing nowhere, printing a one-line fix', async () => {
    const r = await execa('node', [bin, 'doctor'], { reject: false, env: { DOCKER_HOST: 'tcp://127.0.0.1:9' } });
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).toMatch(/^FAIL +container engine: no container engine answers at DOCKER_HOST=tcp:\/\/127\.0\.0\.1:9 \(connection refused\)$/m);
    const fixes = r.stdout.split('\n').filter((l) => l.trim().startsWith('fix:'));
    expect(fixes).toHaveLength(1);
    expect(fixes[0]).toMatch(/unset DOCKER_HOST/);
    expect(r.stderr).not.toMatch(/at .+\.js:\d+/); // no stack trace
  });

  it('with --docker-host checks every engine given, each on its own lines', async () => {
    const r = await execa('node', [bin, 'doctor', '--docker-host', 'unix:///var/run/docker.sock=2', '--docker-host', 'tcp://127.0.0.1:9'], {
      reject: false,
      env: { DOCKER_HOST: '' },
    });
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).toMatch(/^FAIL +engine pool: 2 engines, 6 sandboxes at once; 1 of them do not answer$/m);
    expect(r.stdout).toMatch(/^ok +\[unix:\/\/\/var\/run\/docker\.sock, capacity 2\] container engine: /m);
    expect(r.stdout).toMatch(
      /^FAIL +\[tcp:\/\/127\.0\.0\.1:9, capacity 4\] container engine: no container engine answers at tcp:\/\/127\.0\.0\.1:9 \(connection refused\)$/m,
    );
  });

  it('cleanup --dry-run for an unknown run removes nothing', async () => {
    const r = await execa('node', [bin, 'cleanup', '--run', 'no-such-run-here', '--dry-run'], { reject: false });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('0 sandbox containers of run no-such-run-here would be removed');
  });
});
