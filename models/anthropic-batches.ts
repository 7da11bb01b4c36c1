import type { Message, MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import type { BatchAnswer, BatchRequest, BatchState, ChatMessage, Generation, GenerateOptions, ModelBatches, ToolSpec } from '../core/model.js';
import { failureText, readBatchLines } from './batch-lines.js';
import { callModel, mergeOptions, type ClientSettings } from './call.js';
import type Anthropic from '@anthropic-ai/sdk';
import type { Billing } from './prices.js';

/** What the batches need of the Messages client: its request bodies and its reading of answers. */
interface MessagesParts {
  requestBody(messages: ChatMessage[], tools: ToolSpec[], o: GenerateOptions): MessageCreateParamsNonStreaming;
  generation(result: Message, latencyMs: number, billing?: Billing): Generation;
}

/** One line of a batch's results, as Anthropic documents it. */
const ResultLine = z.looseObject({
  custom_id: z.string(),
  result: z.discriminatedUnion('type', [
    z.looseObject({
      type: z.literal('succeeded'),
      message: z.looseObject({ content: z.array(z.looseObject({ type: z.string() })), usage: z.looseObject({ output_tokens: z.number() }) }),
    }),
    z.looseObject({ type: z.literal('errored'), error: z.unknown() }),
    z.looseObject({ type: z.literal('canceled') }),
    z.looseObject({ type: z.literal('expired') }),
  ]),
});

/** Anthropic's Message Batches: the requests sent in one call, their results read as JSONL once the batch ended. */
export class AnthropicBatches implements ModelBatches {
  constructor(
    private readonly settings: ClientSettings & { sdk: Anthropic },
    private readonly messages: MessagesParts,
  ) {}

  private call<T>(attempt: () => Promise<T>): Promise<T> {
    return callModel(this.settings, undefined, attempt).then((r) => r.result);
  }

  async submit(requests: BatchRequest[]): Promise<string> {
    const batch = await this.call(() =>
      this.settings.sdk.messages.batches.create({
        requests: requests.map((r) => ({
          custom_id: r.id,
          params: this.messages.requestBody(r.messages, [], mergeOptions(this.settings.defaults, r.options)),
        })),
      }),
    );
    return batch.id;
  }

  async check(batchId: string): Promise<BatchState> {
    const b = await this.call(() => this.settings.sdk.messages.batches.retrieve(batchId));
    const c = b.request_counts;
    const done = c.succeeded + c.errored + c.canceled + c.expired;
    return { ended: b.processing_status === 'ended', done, total: done + c.processing, status: b.processing_status };
  }

  async results(batchId: string, ids: readonly string[]): Promise<BatchAnswer[]> {
    // The SDK decodes the JSONL as it streams; each line is checked here all the same.
    const lines = await this.call(async () => {
      const out: string[] = [];
      for await (const line of await this.settings.sdk.messages.batches.results(batchId)) out.push(JSON.stringify(line));
      return out.join('\n');
    });
    const answers = new Map<string, BatchAnswer>();
    for (const line of readBatchLines(lines, ResultLine, `results of batch ${batchId}`)) {
      const id = line.custom_id;
      const r = line.result;
      answers.set(
        id,
        r.type === 'succeeded'
          ? { id, generation: this.messages.generation(r.message as unknown as Message, 0, { batch: true }) }
          : {
              id,
              failed: r.type,
              error: r.type === 'errored' ? failureText(r.error) : `the request ${r.type === 'expired' ? 'expired' : 'was canceled'}`,
            },
      );
    }
    return ids.map((id) => answers.get(id) ?? { id, failed: 'expired', error: `no result for ${id} in batch ${batchId}` });
  }
}
