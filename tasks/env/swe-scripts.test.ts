import { execa } from 'execa';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as scripts from './swe-scripts.js';

describe('the root scripts of a repository sample', () => {
  const bodies = Object.entries(scripts).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].includes('\n'));

  it('are plain text a shell accepts: no NUL byte, and valid POSIX shell syntax', async () => {
    expect(bodies.map(([name]) => name).sort()).toEqual([
      'EVIDENCE_DIFFS',
      'GRADE_IN_PLACE',
      'PREPARE_GRADING_COPY',
      'RESTORE_AFTER_GRADING',
      'SETUP_PRIVATE',
      'SWE_LIB',
    ]);
    for (const [name, body] of bodies) {
      expect(body.includes('\0'), name).toBe(false);
      const check = await execa('sh', ['-n', '-c', body], { reject: false });
      expect(check.stderr, name).toBe('');
      expect(check.exitCode, name).toBe(0);
    }
  });

  it('walk the folders open to all under `set -e` even when the image lacks one of them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ib-roots-'));
    try {
      await mkdir(join(dir, 'open'));
      await writeFile(join(dir, 'open', 'left'), 'x');
      await writeFile(join(dir, 'roots'), `${join(dir, 'gone')}\n${join(dir, 'open')}\n`);
      // P is where the harness keeps its files (the roots file among them); here, the test's folder.
      const script = `${scripts.SWE_LIB}\nset -e\nP=$1\nin_roots -name left -print\necho finished`;
      const r = await execa('sh', ['-c', script, 'lib', dir], { reject: false });
      expect({ exitCode: r.exitCode, stdout: r.stdout.trim().split('\n') }).toEqual({ exitCode: 0, stdout: [join(dir, 'open', 'left'), 'finished'] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
