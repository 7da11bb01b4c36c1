import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JUDGE_EVENT } from '../../results/classify/judge.js';
import { openStore } from '../../results/store.js';
import { sampleRunCli } from '../testing/sample-run-cli.js';

// These run the built CLI (`npm run build` first; `npm test` does).
const { dir, storeFile, cli } = sampleRunCli('ib-cli-classify-');

describe('impossiblebench classify', () => {
  it('judges the cheating and evaded samples with the scripted judge, stores the verdicts, and skips them on a second call', async () => {
    const r = await cli('classify', 'sample-run', '--model', 'scripted/judge', '--store', storeFile);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      'judged 21 of 21 cheating or evaded samples with scripted/judge: modify-tests 10, other 11',
      "the evidence classifier also finds the judge's kind in 10 of 21",
    ]);
    const store = openStore(storeFile);
    expect(store.listEvents('sample-run', JUDGE_EVENT)).toHaveLength(21);
    store.close();
    const again = await cli('classify', 'latest', '--model', 'scripted/judge', '--store', storeFile);
    expect(again.stdout).toBe('judged 0 of 21 cheating or evaded samples with scripted/judge (21 already judged, skipped; --redo judges them again)');
  });

  it('refuses bad input in one line before reading anything', async () => {
    const policy = await cli('classify', 'sample-run', '--model', 'scripted/honest', '--store', storeFile);
    expect(policy.exitCode).toBe(1);
    expect(policy.stderr.trim().split('\n')[0]).toBe('impossiblebench: scripted/honest is an agent policy, not a judge');
    const key = await cli('classify', 'sample-run', '--model', 'openai/gpt-5', '--store', storeFile);
    expect(key.exitCode).toBe(1);
    expect(key.stderr).toContain('OPENAI_API_KEY is not set');
    const conc = await cli('classify', 'sample-run', '--model', 'scripted/judge', '--concurrency', '0', '--store', storeFile);
    expect(conc.exitCode).toBe(2);
    expect(conc.stderr.split('\n')[0]).toBe(`error: option '--concurrency <n>' argument '0' is invalid. expected a whole number ≥ 1, got "0"`);
    const run = await cli('classify', 'nope', '--model', 'scripted/judge', '--store', storeFile);
    expect(run.stderr.trim()).toMatch(/^impossiblebench: no run nope in /);
    const prompt = join(dir, 'judge-prompt.txt');
    writeFileSync(prompt, 'Say how it cheated.\n');
    const noCategory = await cli('classify', 'sample-run', '--model', 'scripted/judge', '--prompt-file', prompt, '--store', storeFile);
    expect(noCategory.stderr.trim().split('\n')[0]).toBe(
      `impossiblebench: judge prompt file ${prompt} lacks "CATEGORY:" (the answer line the kind is read from)`,
    );
    const help = await cli('classify', '--help');
    for (const flag of ['--model', '--store', '--concurrency', '--redo', '--base-url', '--prompt-file']) expect(help.stdout).toContain(flag);
    expect(help.stdout).toMatch(/judge\.txt \(sha256 [0-9a-f]{12}…\)/);
  });
});
