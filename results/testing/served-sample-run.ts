import { beforeEach } from 'vitest';
import { createModelClient } from '../../models/index.js';
import type { ModelClient } from '../../core/model.js';
import type { Policy } from '../../simulated/policy.js';
import type { ModelServer, SessionOptions } from '../../simulated/server/index.js';
import { useModelServer } from '../../simulated/testing/model-server.js';
import { judgeContextTask } from '../classify/judge-policy.js';
import type { SampleRecord } from '../../core/record.js';
import { storeSampleRun } from './sample-run.js';
import { useTempStore, type TempStore } from './temp-store.js';

export interface ScriptedReader {
  wire?: 'openai' | 'anthropic';
  session?: SessionOptions;
}

/**
 * A client per sample for a scripted judge or monitor (`scripted/NAME` playing `policy`) through the local server,
 * with no retries, so a fault the session injects shows as that sample's failure at once.
 */
export function scriptedReader(
  server: ModelServer,
  name: string,
  policy: Policy,
  reader: ScriptedReader = {},
): (sample: SampleRecord) => ModelClient {
  return (sample) =>
    createModelClient(`scripted/${name}`, {
      server,
      policy,
      wire: reader.wire ?? 'openai',
      retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 },
      context: { task: judgeContextTask(sample.key), scaffold: sample.key.scaffold },
      ...(reader.session ? { session: reader.session } : {}),
    });
}

/** The local model server for the block, and a fresh store holding the sample run (see sample-run.ts) for each test. */
export interface ServedSampleRun extends TempStore {
  readonly server: ModelServer;
  /** The sample run's id in this test's store. */
  readonly run: string;
  /** scriptedReader on this block's server. */
  reader(name: string, policy: Policy, reader?: ScriptedReader): (sample: SampleRecord) => ModelClient;
}

export function useServedSampleRun(prefix = 'ib-served-'): ServedSampleRun {
  const server = useModelServer();
  const temp = useTempStore({ prefix });
  let run: string | undefined;
  beforeEach(() => {
    run = storeSampleRun(temp.store);
  });
  return {
    server,
    get dir() {
      return temp.dir;
    },
    get path() {
      return temp.path;
    },
    get store() {
      return temp.store;
    },
    reopen: (options) => temp.reopen(options),
    get run() {
      if (run === undefined) throw new Error('the sample run is stored in beforeEach: use it in a test');
      return run;
    },
    reader: (name, policy, reader) => scriptedReader(server, name, policy, reader),
  };
}
