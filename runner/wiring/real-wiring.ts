import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { sandboxBackend } from '../../docker/backends.js';
import { DEFAULT_PIDS_LIMIT } from '../../docker/limits-defaults.js';
import type { ReadOnlyFile, SandboxBackend, SandboxOptions } from '../../docker/types.js';
import type { ResultStore, RunReference } from '../../results/store.js';
import { taskSandboxLimits } from '../../tasks/env/sandbox-limits.js';
import { sweGradeTimeoutMs } from '../../tasks/env/swe.js';
import { ReferenceRuns, runReferenceRow } from '../orchestration/references.js';
import { runAgent } from '../../scaffolds/index.js';
import { createModelClient, parseModelSpec, type PriceTable } from '../../models/index.js';
import { runPrices } from '../orchestration/run-prices.js';
import { isScriptedPolicyName, SCRIPTED_POLICY_NAMES } from '../../simulated/policies/index.js';
import { resolvePrompt } from '../../scaffolds/prompts.js';
import { startModelServer, type FaultConfig, type ModelServer } from '../../simulated/server/index.js';
import { taskImage } from '../../tasks/images.js';
import type { Task } from '../../tasks/task.js';
import type { Experiment } from '../settings/config.js';
import { loadDatasetSplits, type MissingImage } from '../orchestration/datasets.js';
import { UserError } from '../../core/errors.js';
import { historyImages } from '../orchestration/history-images.js';
import { removeRunContainers, removeStaleLeftovers } from '../orchestration/leftovers.js';
import type { PlannedSample } from '../orchestration/matrix.js';
import { experimentTemplates } from '../settings/templates.js';
import type { Wiring } from './wiring.js';
import type { TaskLoader } from '../orchestration/experiment.js';
import { runAgentClis, scriptedWireFor, type RunAgentClis } from '../settings/agent-clis.js';
import { SCRIPTED_INTERVIEW_JUDGES } from '../../simulated/policies/interview-judge.js';
import { interviewJudgeSpec } from './interview-judge.js';

export interface RealWiringOptions {
  /** Fault rates of the local model server that `scripted/` models talk to (to test the harness). */
  scriptedFaults?: FaultConfig;
  log?: Logger;
  /** Prove generated variants impossible before running them (default true). */
  validateVariants?: boolean;
  /** Where progress of loading and validation is told. */
  say?: (line: string) => void;
  /** The run's interrupt signal, so an interrupt also stops the preparation of tasks. */
  signal?: AbortSignal;
  /** The run's store, opened on first need: reference runs are kept there for later runs. */
  store?: () => ResultStore;
}

/**
 * The image and limits a task's sandbox gets: no file larger than what the agent may write in all; an agent program's
 * binary, read-only, for its scaffold's samples.
 */
export function sandboxFor(
  task: Task,
  experiment: Pick<Experiment, 'limits'>,
  readOnlyFiles: ReadOnlyFile[] = [],
): Omit<SandboxOptions, 'runId' | 'sampleId'> {
  return {
    image: taskImage(task),
    pidsLimit: DEFAULT_PIDS_LIMIT,
    ...taskSandboxLimits(task, experiment.limits),
    maxFileBytes: experiment.limits.diskLimitMb * 1024 * 1024,
    ...(readOnlyFiles.length ? { readOnlyFiles } : {}),
  };
}

/** The run's reference runs: its limits, the time a grading gets, kept in its store. */
function referenceRuns(
  experiment: Experiment,
  backend: SandboxBackend,
  imageFor: (task: Task, sandbox: SandboxOptions) => Promise<string>,
  options: RealWiringOptions,
): ReferenceRuns {
  return new ReferenceRuns({
    backend,
    limits: experiment.limits,
    timeoutMs: sweGradeTimeoutMs(experiment.limits.toolTimeoutS * 1000),
    runId: `validate-${process.pid}`,
    imageFor,
    ...(options.store ? { store: options.store } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
}

/** What can be checked of a model spec with no API key: its form, and a scripted model's policy. */
export function checkModelSpec(model: string): ReturnType<typeof parseModelSpec> {
  const spec = parseModelSpec(model);
  if (spec.provider === 'scripted' && !isScriptedPolicyName(spec.name))
    throw new UserError(`unknown scripted policy "${spec.name}" in ${model}`, `use one of ${SCRIPTED_POLICY_NAMES.join(', ')}`);
  return spec;
}

/** Checks every model spec (and its API key) before anything runs, so a typo costs nothing. */
function checkModels(experiment: Experiment, clis: RunAgentClis): void {
  for (const model of experiment.models) {
    if (checkModelSpec(model).provider === 'scripted') continue;
    // Building a client checks the key and base URL without any request; an agent program checks the model's API.
    clis.checkModel(createModelClient(model, realClientOptions(experiment)));
  }
  const judge = interviewJudgeSpec(experiment);
  if (judge && judge.provider !== 'scripted') createModelClient(judge.spec, realClientOptions(experiment));
}

/** What every real provider client of a run gets: base URL, generation settings, connections, prices, prompt caching. */
function realClientOptions(experiment: Experiment, prices?: PriceTable, log?: Logger) {
  return {
    ...(experiment.baseUrl ? { baseUrl: experiment.baseUrl } : {}),
    defaults: experiment.generation,
    timeoutMs: experiment.limits.requestTimeoutS * 1000,
    ...(experiment.connections !== undefined ? { concurrency: experiment.connections } : {}),
    ...(prices ? { prices } : {}),
    promptCache: experiment.promptCache,
    ...(log ? { logger: log } : {}),
  };
}

const WIRES = ['openai', 'anthropic', 'responses'] as const;

/**
 * Which SDK and API a scripted sample goes through: Chat Completions, Messages or Responses, decided by the sample id,
 * so a run of several samples exercises all three.
 */
export function wireFor(sample: Pick<PlannedSample, 'id'>): (typeof WIRES)[number] {
  return WIRES[Number.parseInt(createHash('sha256').update(sample.id).digest('hex').slice(0, 2), 16) % WIRES.length]!;
}

/** A sample's model client: a scripted one answers on the sample's wire (an agent program's own API), a real one. */
async function createModel(
  spec: string,
  sample: PlannedSample,
  run: { experiment: Experiment; clis: RunAgentClis; prices?: PriceTable; log?: Logger; getServer: () => Promise<ModelServer> },
) {
  if (!spec.trim().startsWith('scripted/')) return createModelClient(spec, realClientOptions(run.experiment, run.prices, run.log));
  const cliSpec = run.clis.runFor(sample.key.scaffold)?.spec;
  return createModelClient(spec, {
    server: await run.getServer(),
    context: { task: sample.task, scaffold: sample.key.scaffold, epoch: sample.key.epoch },
    // An agent program speaks one API: the scripted model answers on that one.
    wire: cliSpec ? scriptedWireFor(cliSpec) : wireFor(sample),
    session: { key: sample.id },
    defaults: run.experiment.generation,
    // A price file may price a scripted policy, and --scripted-price-as bills it at a real model's prices.
    ...(run.prices ? { prices: run.prices } : {}),
    ...(run.experiment.scriptedPriceAs ? { priceAs: run.experiment.scriptedPriceAs } : {}),
  });
}

/**
 * A sample's interview judge: a real model's client as the agent's would be, or a scripted judge in a server session of
 * its own, on the sample's wire.
 */
async function createInterviewJudge(
  spec: string,
  sample: PlannedSample,
  run: { experiment: Experiment; prices?: PriceTable; log?: Logger; getServer: () => Promise<ModelServer> },
) {
  const parsed = interviewJudgeSpec({ interview: true, interviewJudge: spec })!;
  if (parsed.provider !== 'scripted') return createModelClient(spec, realClientOptions(run.experiment, run.prices, run.log));
  return createModelClient(spec, {
    server: await run.getServer(),
    policy: SCRIPTED_INTERVIEW_JUDGES[parsed.name]!,
    context: { task: sample.task, scaffold: sample.key.scaffold, epoch: sample.key.epoch },
    wire: wireFor(sample),
    session: { key: `${sample.id}/interview-judge` },
    ...(run.prices ? { prices: run.prices } : {}),
    ...(run.experiment.scriptedPriceAs ? { priceAs: run.experiment.scriptedPriceAs } : {}),
  });
}

/** Loads a dataset's tasks for the run: its images checked, its SWE tasks' reference runs made, its variants validated. */
function taskLoader(
  experiment: Experiment,
  options: RealWiringOptions,
  parts: {
    backend: SandboxBackend;
    imageFor: (task: Task, sandbox: SandboxOptions) => Promise<string>;
    missing: MissingImage[];
    outcomes: RunReference[];
    references?: ReferenceRuns;
  },
): TaskLoader {
  const { backend, references } = parts;
  return (dataset, exp) =>
    loadDatasetSplits(dataset, exp, {
      validateVariants: options.validateVariants ?? true,
      ...(options.say ? { say: options.say } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      backend,
      // On a pool, an image counts as missing when no engine holds it: samples go where theirs is.
      missingImages: (images) => backend.images.missing(images),
      onMissingImage: (m) => parts.missing.push(m),
      // Validation's sandboxes start from the history images the run's samples use after them.
      imageFor: parts.imageFor,
      limits: experiment.limits,
      ...(references
        ? {
            references: {
              runs: references,
              concurrency: experiment.concurrency,
              onOutcomes: (name, made) => parts.outcomes.push(...made.map((o) => runReferenceRow(name, o))),
            },
          }
        : {}),
    });
}

/** The experiment's sandbox backend, sandboxes, model clients, agent loops and task loaders. */
export async function realWiring(experiment: Experiment, options: RealWiringOptions = {}): Promise<Wiring> {
  // One local model server for the whole run, started on first need (concurrent callers share it).
  let server: Promise<ModelServer> | undefined;
  const getServer = () =>
    (server ??= startModelServer({ seed: experiment.seed, ...(options.scriptedFaults ? { faults: options.scriptedFaults } : {}) }));
  // Read once, up front: a bad price file is an input error, found before anything runs.
  const prices = runPrices(experiment);
  const needsServer = [...experiment.models, ...(experiment.interviewJudge ? [experiment.interviewJudge] : [])].some((m) =>
    m.trim().startsWith('scripted/'),
  );
  // The texts every agent of the run is sent: read and checked before anything runs.
  const templates = experimentTemplates(experiment);
  const missing: MissingImage[] = [];
  // An engine of a pool that stops answering is taken out; the run goes on with the rest and says so.
  const backend = sandboxBackend(experiment.sandbox, experiment.dockerHosts ?? [], {
    onLost: (engine, reason, left) => {
      options.log?.warn({ engine, reason, enginesLeft: left }, 'container engine gone; its samples are tried again on the others');
      options.say?.(
        `engine ${engine} is gone (${reason}): ${left === 0 ? 'no engine left, the run stops' : `going on with ${left} engine${left === 1 ? '' : 's'}`}; its samples are tried again`,
      );
    },
  });
  const history = historyImages(backend, options.signal);
  // The agent programs the run's scaffolds name: unknown names fail here, before anything runs.
  const clis = runAgentClis(experiment, prices);
  const imageFor = (task: Task, sandbox: SandboxOptions) => history.imageFor(task, sandbox, options.log);
  const references = experiment.reference ? referenceRuns(experiment, backend, imageFor, options) : undefined;
  const outcomes: RunReference[] = [];
  return {
    services: {
      createSandbox: async (task, scaffold, ids, log) => {
        const options = { ...sandboxFor(task, experiment, clis.sandboxFiles(scaffold)), ...ids };
        return backend.create({ ...options, image: await history.imageFor(task, options, log) });
      },
      ...(backend.placement ? { reserveSandbox: (task: Task) => backend.placement?.reserve(history.madeFor(task) ?? taskImage(task)) } : {}),
      samplesPlanned: (tasks) => history.expect(tasks),
      sampleFinished: (task) => history.finished(task),
      createModel: async (spec, sample) =>
        createModel(spec, sample, { experiment, clis, prices, ...(options.log ? { log: options.log } : {}), getServer }),
      createInterviewJudge: async (spec, sample) =>
        createInterviewJudge(spec, sample, { experiment, prices, ...(options.log ? { log: options.log } : {}), getServer }),
      instructions: (prompt) => resolvePrompt(prompt, templates),
      runAgent: (input) => {
        const agentCli = clis.runFor(input.scaffold);
        return runAgent({ ...input, templates, ...(agentCli ? { agentCli } : {}) });
      },
    },
    loadTasks: taskLoader(experiment, options, { backend, imageFor, missing, outcomes, ...(references ? { references } : {}) }),
    missingImages: () => [...missing],
    references: () => [...outcomes],
    removeLeftovers: async (store, runId) => ({
      // Other runs' leftovers are tidied on the way: failing to list them does not stop this run.
      stale: await removeStaleLeftovers(backend, store, runId).catch(() => 0),
      ofRun: await removeRunContainers(backend, runId),
    }),
    preflight: async (exp) => {
      checkModels(exp, clis);
      // A missing agent program fails the run before any sample, with the command that installs it.
      clis.requireBinaries();
      await backend.connect();
      if (needsServer) await getServer();
    },
    close: async () => {
      await history.removeAll().catch((err: unknown) => options.log?.warn({ err: String(err) }, 'could not remove the history images'));
      if (server) await (await server).close();
    },
  };
}
