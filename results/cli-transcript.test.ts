import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODEX_COMMANDS, CODEX_PATCH, CODEX_PROMPT, codexRunExchanges } from '../scaffolds/agent-cli/testing/codex-run.js';
import { exchangesToTranscript } from '../scaffolds/agent-cli/transcript.js';
import { type ExportLine, exportRun } from './export.js';
import { makeRecord } from './testing/make-record.js';
import { useTempStore } from './testing/temp-store.js';

/**
 * A sample an agent program (Codex CLI) ran: its transcript, made from the proxy's exchanges, kept by the store and
 * carried whole by the JSONL export, every request's new part and reply, and the commands in the order they were sent.
 */
const temp = useTempStore({ prefix: 'ib-cli-transcript-' });

describe('a CLI sample in the store and the export', () => {
  it('keeps each request and reply and the commands as the program sent them', async () => {
    const transcript = exchangesToTranscript('openai-responses', codexRunExchanges());
    const run = temp.store.createRun({ models: ['openai/gpt-5-codex'] });
    temp.store.saveSample(run, makeRecord({ key: { model: 'openai/gpt-5-codex', scaffold: 'full' }, outcome: 'passed', transcript }));
    expect(temp.reopen().getSample(run, 1)?.transcript).toEqual(transcript);

    const out = join(temp.dir, 'samples.jsonl');
    await exportRun(temp.store, run, out);
    const [line] = readFileSync(out, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as ExportLine);
    expect(line!.transcript).toEqual(transcript);
    const calls = line!.transcript.flatMap((m) => m.toolCalls ?? []);
    expect(calls.map((c) => c.name)).toEqual(['exec_command', 'apply_patch', 'exec_command', 'exec_command']);
    expect(calls.filter((c) => c.name === 'exec_command').map((c) => JSON.parse(c.arguments).cmd)).toEqual(CODEX_COMMANDS);
    expect(calls.find((c) => c.name === 'apply_patch')?.arguments).toBe(CODEX_PATCH);
    // The conversation in order: opening once, then each reply followed by the results the next request added.
    expect(line!.transcript.map((m) => `${m.role}${m.name ? `:${m.name}` : ''}${m.toolCallId ? `<${m.toolCallId}` : ''}`)).toEqual([
      'system:developer',
      'user',
      'user',
      'assistant:reasoning',
      'assistant',
      'tool<call_0',
      'assistant',
      'tool<call_p',
      'tool<call_1',
      'assistant',
      'tool<call_2',
      'assistant',
    ]);
    expect(line!.transcript.filter((m) => m.content === CODEX_PROMPT)).toHaveLength(1);
  });
});
