import { execa } from 'execa';
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
    ]);
    for (const [name, body] of bodies) {
      expect(body.includes('\0'), name).toBe(false);
      const check = await execa('sh', ['-n', '-c', body], { reject: false });
      expect(check.stderr, name).toBe('');
      expect(check.exitCode, name).toBe(0);
    }
  });
});
