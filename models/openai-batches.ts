import { toFile } from 'openai';
import { z } from 'zod';
import type { BatchAnswer, BatchRequest, BatchState, ChatMessage, Generation, GenerateOptions, ModelBatches, ToolSpec } from '../core/model.js';
import { failureText, readBatchLines } from './batch-lines.js';
import { callModel, mergeOptions, type ClientSettings } from './call.js';
import type OpenAI from 'openai';
import type { Billing } from './prices.js';

/** What the batches need of an OpenAI client: the endpoint its requests go to, their bodies, and its reading of answers. */
export interface OpenAIBatchApi {
  endpoint: '/v1/chat/completions' | '/v1/responses';
  requestBody(messages: ChatMessage[], tools: ToolSpec[], o: GenerateOptions): object;
  /** One answer's body as a generation at the batch price; throws when the body is not an answer. */
  readBody(body: unknown, billing: Billing): Generation;
}

/** The states after which an OpenAI batch changes no more. */
const ENDED = new Set(['completed', 'expired', 'failed', 'cancelled']);

/** One line of an output or error file, as OpenAI documents it. */
const OutputLine = z.looseObject({
  custom_id: z.string(),
  response: z.looseObject({ status_code: z.number().int(), body: z.unknown() }).nullish(),
  error: z.looseObject({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
});

/** OpenAI's Batch API (over Chat Completions or Responses): a JSONL file uploaded with purpose `batch`, then a batch made of it. */
export class OpenAIBatches implements ModelBatches {
  constructor(
    private readonly settings: ClientSettings & { sdk: OpenAI },
    private readonly api: OpenAIBatchApi,
  ) {}

  private call<T>(attempt: () => Promise<T>): Promise<T> {
    return callModel(this.settings, undefined, attempt).then((r) => r.result);
  }

  async submit(requests: BatchRequest[]): Promise<string> {
    const lines = requests.map((r) =>
      JSON.stringify({
        custom_id: r.id,
        method: 'POST',
        url: this.api.endpoint,
        body: this.api.requestBody(r.messages, [], mergeOptions(this.settings.defaults, r.options)),
      }),
    );
    const sdk = this.settings.sdk;
    const file = await this.call(async () =>
      sdk.files.create({ file: await toFile(Buffer.from(`${lines.join('\n')}\n`), 'batch.jsonl'), purpose: 'batch' }),
    );
    const batch = await this.call(() => sdk.batches.create({ input_file_id: file.id, endpoint: this.api.endpoint, completion_window: '24h' }));
    return batch.id;
  }

  async check(batchId: string): Promise<BatchState> {
    const b = await this.call(() => this.settings.sdk.batches.retrieve(batchId));
    const counts = b.request_counts;
    return {
      ended: ENDED.has(b.status),
      done: counts ? counts.completed + counts.failed : 0,
      total: counts?.total ?? 0,
      status: b.status,
    };
  }

  async results(batchId: string, ids: readonly string[]): Promise<BatchAnswer[]> {
    const sdk = this.settings.sdk;
    const b = await this.call(() => sdk.batches.retrieve(batchId));
    const read = async (fileId: string | undefined, what: string) => {
      if (!fileId) return [];
      const text = await this.call(async () => (await sdk.files.content(fileId)).text());
      return readBatchLines(text, OutputLine, `${what} ${fileId} of batch ${batchId}`);
    };
    const answers = new Map<string, BatchAnswer>();
    for (const line of [...(await read(b.output_file_id, 'output file')), ...(await read(b.error_file_id, 'error file'))]) {
      answers.set(line.custom_id, this.answer(line, batchId));
    }
    const why = b.status === 'failed' ? `the batch failed: ${failureText(b.errors?.data?.[0] ?? 'no reason given')}` : `the batch ended ${b.status}`;
    return ids.map((id) => answers.get(id) ?? { id, failed: b.status === 'failed' ? 'errored' : 'expired', error: `no answer: ${why}` });
  }

  private answer(line: z.infer<typeof OutputLine>, batchId: string): BatchAnswer {
    const id = line.custom_id;
    const response = line.response;
    if (line.error || !response || response.status_code !== 200) {
      const expired = line.error?.code === 'batch_expired';
      const error = line.error ? failureText(line.error) : `status ${response?.status_code ?? 'none'}: ${failureText(response?.body)}`;
      return { id, failed: expired ? 'expired' : 'errored', error };
    }
    try {
      return { id, generation: this.api.readBody(response.body, { batch: true }) };
    } catch (err) {
      return { id, failed: 'errored', error: `batch ${batchId}, request ${id}: ${err instanceof Error ? err.message : String(err)}` };
    }
  }
}
