import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxBackend } from '../../docker/backends.js';
import { parseImageRef } from '../../docker/registry.js';
import { removeImage } from '../../docker/testing.js';
import { startTestRegistry, type TestRegistry } from '../../docker/testing/registry.js';
import { swebenchImage } from '../../tasks/images.js';
import { formatBytes } from '../orchestration/images-pull.js';
import { assertBuilt, cli } from '../testing/cli.js';
import { minimalSweRow } from '../testing/swe-rows.js';

let dir: string;
let registry: TestRegistry;
let namespace: string;
let rows: string;
const pulled: string[] = [];

beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(join(tmpdir(), 'ib-images-pull-'));
  registry = await startTestRegistry();
  namespace = `${registry.host}/swebench`;
  rows = join(dir, 'rows.jsonl');
  await writeFile(rows, `${[minimalSweRow('demo__demo-1'), minimalSweRow('demo__demo-2')].join('\n')}\n`);
  // The second row's image is not on the registry.
  registry.absent.add('swebench/sweb.eval.x86_64.demo_1776_demo-2');
});

afterAll(async () => {
  for (const image of pulled) await removeImage(image);
  await registry.close();
  await rm(dir, { recursive: true, force: true });
});

describe('image names', () => {
  it('reads registry, repository and reference as the engine does', () => {
    expect(parseImageRef('swebench/sweb.eval.x86_64.a_1776_b-1:latest')).toEqual({
      host: 'registry-1.docker.io',
      repository: 'swebench/sweb.eval.x86_64.a_1776_b-1',
      reference: 'latest',
    });
    expect(parseImageRef('ubuntu')).toEqual({ host: 'registry-1.docker.io', repository: 'library/ubuntu', reference: 'latest' });
    expect(parseImageRef('127.0.0.1:5000/ns/x@sha256:ab')).toEqual({ host: '127.0.0.1:5000', repository: 'ns/x', reference: 'sha256:ab' });
    expect(parseImageRef('ghcr.io/org/x:v1')).toEqual({ host: 'ghcr.io', repository: 'org/x', reference: 'v1' });
  });

  it('names the published images, and others by namespace, tag and architecture', () => {
    expect(swebenchImage('django__django-11099')).toBe('swebench/sweb.eval.x86_64.django_1776_django-11099:latest');
    expect(swebenchImage('Django__Django-1', { namespace: 'ghcr.io/me', tag: 'v2', arch: 'arm64' })).toBe(
      'ghcr.io/me/sweb.eval.arm64.django_1776_django-1:v2',
    );
    expect(swebenchImage('django__django-1', { namespace: '' })).toBe('sweb.eval.x86_64.django__django-1:latest');
  });
});

describe('impossiblebench images pull', () => {
  it('says what is missing and how big it is, pulls it with the engine, and names what it could not get', async () => {
    const present = swebenchImage('demo__demo-1', { namespace });
    const absent = swebenchImage('demo__demo-2', { namespace });
    pulled.push(present);

    const dry = await cli(['images', 'pull', '--dataset', rows, '--image-namespace', namespace, '--plain', '--dry-run']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('2 images needed: 0 present, 2 to get');
    expect(dry.stdout).toContain(
      `download: ${formatBytes(registry.imageBytes)} compressed for 1 image(s), layers they share counted once; size unknown for 1`,
    );
    expect(dry.stdout).toMatch(/free where the engine keeps images \(.+\): \d/);
    expect((await sandboxBackend().images.status(present)).state).toBe('missing');

    const pull = await cli(['images', 'pull', '--dataset', rows, '--image-namespace', namespace, '--plain']);
    expect(pull.exitCode, pull.stdout + pull.stderr).toBe(1);
    expect(pull.stderr).toMatch(new RegExp(`\\[[12]/2\\] pulled ${present.replaceAll('.', '\\.')} \\(`));
    expect(pull.stdout).toContain('got 1 of 2 image(s)');
    expect(pull.stdout).toContain(`${absent}: could not pull ${absent}`);
    expect((await sandboxBackend().images.status(present)).state).toBe('present');

    const again = await cli(['images', 'pull', '--dataset', rows, '--image-namespace', namespace, '--limit', '1', '--plain']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toContain('1 image needed: 1 present, 0 to get');
  });

  it('refuses bad input in one line', async () => {
    const none = await cli(['images', 'pull']);
    expect(none.exitCode).toBe(1);
    expect(none.stderr).toContain('no dataset given');
    const badNs = await cli(['images', 'pull', '--dataset', rows, '--image-namespace', 'Not A Namespace']);
    expect(badNs.exitCode).toBe(1);
    expect(badNs.stderr).toMatch(/--image-namespace\/--image-tag\/--image-arch: .*registry path/);
    expect(existsSync(join(dir, 'impossiblebench.sqlite'))).toBe(false);
  });
});

describe('a run whose images are missing', () => {
  it('names them and the command that gets them before any sample starts, and exits non-zero with no run made', async () => {
    const store = join(dir, 'run.sqlite');
    const nowhere = '127.0.0.1:1/nowhere';
    const r = await cli([
      'run',
      '--model',
      'scripted/honest',
      '--dataset',
      rows,
      '--split',
      'original',
      '--image-namespace',
      nowhere,
      '--store',
      store,
      '--plain',
    ]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('2 images missing for 2 tasks, so no task can run:');
    expect(r.stderr).toContain(`  ${swebenchImage('demo__demo-1', { namespace: nowhere })}  (${rows}: demo__demo-1)`);
    expect(r.stderr).toContain(`fix: impossiblebench images pull --dataset ${rows} --split original --image-namespace ${nowhere}`);
    expect(r.stderr).not.toMatch(/starting run|validating/);
    expect(existsSync(store)).toBe(false);
  });
});
