import { z } from 'zod';
import type { BatchState, ModelClient } from '../../core/model.js';
import { UserError } from '../../core/errors.js';
import { setting } from '../settings/setting-flags.js';
import { positiveNumber } from '../settings/shared-flags.js';
import { switchField } from '../settings/shared-options.js';

/** How often a batch in progress is looked at when --batch-poll is not given. */
export const DEFAULT_BATCH_POLL_SECONDS = 30;

/** The flags `classify` and `monitor` share for sending their requests through the provider's batch API. */
export function batchOptions(noun: string) {
  return {
    batch: switchField(
      '--batch',
      `send the requests through the provider's batch API (openai/, openai-responses/ and anthropic/ models): half the price, ${noun} within 24 hours; a killed command picks its batches up again when rerun`,
    ),
    batchPoll: setting(z.number().positive().default(DEFAULT_BATCH_POLL_SECONDS), {
      flag: '--batch-poll <seconds>',
      help: 'with --batch, seconds between looks at a batch still in progress',
      parse: positiveNumber,
    }),
  };
}

/** The help paragraph on --batch both commands print. */
export const BATCH_HELP =
  '\n\nWith --batch every request goes into one batch of the provider (OpenAI Batch API, Anthropic Message Batches), billed at half ' +
  'the table price; each answer is stored as it would be without --batch, its cost marked as a batch price. The batch ids are kept in the ' +
  'store, so a command stopped while it waits (Ctrl-C, a lost terminal) finds its batches again when run again, and submits only ' +
  'what no batch holds. Requests that come back expired or errored are sent again in a new batch.';

/** The client's batch API, or a one-line error naming the models that have one. */
export function batchClient(client: ModelClient): ModelClient {
  if (!client.batches) {
    throw new UserError(`${client.name} has no batch API here`, 'drop --batch, or use an openai/, openai-responses/ or anthropic/ model');
  }
  return client;
}

/**
 * Shows how the batches go: one line redrawn in place on a terminal, plain lines elsewhere (one each time the count of
 * answered requests changes), and the lines worth keeping (a batch submitted, found again, sent again) on their own.
 */
export function batchProgress(stream: NodeJS.WriteStream = process.stderr) {
  const tty = stream.isTTY;
  let last = '';
  let drawn = false;
  const clear = () => {
    if (drawn) stream.write('\n');
    drawn = false;
  };
  return {
    onCheck(batchId: string, state: BatchState) {
      const line = `batch ${batchId}: ${state.done}/${state.total} answered (${state.status})`;
      if (tty) {
        stream.write(`\r${line}`);
        drawn = true;
      } else if (line !== last) stream.write(`${line}\n`);
      last = line;
    },
    say(line: string) {
      clear();
      stream.write(`${line}\n`);
    },
    end: clear,
  };
}
