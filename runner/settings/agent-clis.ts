import type { ReadOnlyFile } from '../../docker/types.js';
import { UserError } from '../../core/errors.js';
import type { ModelClient } from '../../core/model.js';
import { BUILTIN_SCAFFOLDS, type ScaffoldName } from '../../core/record.js';
import type { PriceTable } from '../../models/prices.js';
import { requireAgentBinary } from '../../scaffolds/agent-cli/binaries.js';
import { agentCliReadOnlyFiles, endpointFor } from '../../scaffolds/agent-cli/run.js';
import { type AgentCliSpec, agentCliFor, isAgentCliScaffold } from '../../scaffolds/agent-cli/spec.js';
import type { AgentCliRun } from '../../scaffolds/types.js';
import type { Experiment } from './config.js';

/**
 * The agent programs a run's scaffolds name (`codex`, `claude-code`, or one the config describes under `agentClis`):
 * each found once on this machine, shown read-only in its samples' sandboxes, and the model's API checked against it.
 */
export interface RunAgentClis {
  /** The program a scaffold runs, or undefined for our own loops. */
  runFor(scaffold: ScaffoldName): AgentCliRun | undefined;
  /** The read-only files of a sample's sandbox: the program's binary. */
  sandboxFiles(scaffold: ScaffoldName): ReadOnlyFile[];
  /** Fails, before any sample, when a program is missing (naming the command that installs it). */
  requireBinaries(): void;
  /** Fails when a model cannot be reached through a program's API (codex with an anthropic/ model). */
  checkModel(model: ModelClient): void;
  /** The APIs the run's programs speak, for the scripted models' wire. */
  readonly specs: readonly AgentCliSpec[];
}

/** Every scaffold a run names must be ours, built in, or described in `agentClis`. */
function specsOf(experiment: Pick<Experiment, 'scaffolds' | 'agentClis'>): AgentCliSpec[] {
  const seen = new Set<string>();
  for (const [i, c] of experiment.agentClis.entries()) {
    if (seen.has(c.name)) throw new UserError(`agentClis[${i}].name: ${c.name} is described twice`);
    seen.add(c.name);
  }
  const specs: AgentCliSpec[] = [];
  for (const scaffold of experiment.scaffolds) {
    if (!isAgentCliScaffold(scaffold)) continue;
    const spec = agentCliFor(scaffold, experiment.agentClis);
    if (!spec) {
      throw new UserError(
        `unknown scaffold "${scaffold}"`,
        `use one of ${BUILTIN_SCAFFOLDS.join(', ')}, or describe the agent program under agentClis in a --config file`,
      );
    }
    specs.push(spec);
  }
  return specs;
}

export function runAgentClis(experiment: Pick<Experiment, 'scaffolds' | 'agentClis'>, prices?: PriceTable): RunAgentClis {
  const specs = specsOf(experiment);
  const binaries = new Map<string, string>();
  const binaryOf = (spec: AgentCliSpec) => {
    let path = binaries.get(spec.name);
    if (!path) binaries.set(spec.name, (path = requireAgentBinary(spec)));
    return path;
  };
  const specFor = (scaffold: ScaffoldName) => specs.find((s) => s.name === scaffold);
  return {
    specs,
    runFor: (scaffold) => {
      const spec = specFor(scaffold);
      return spec ? { spec, ...(prices ? { prices } : {}) } : undefined;
    },
    sandboxFiles: (scaffold) => {
      const spec = specFor(scaffold);
      return spec ? agentCliReadOnlyFiles(spec, binaryOf(spec)) : [];
    },
    requireBinaries: () => {
      for (const spec of specs) binaryOf(spec);
    },
    checkModel: (model) => {
      for (const spec of specs) endpointFor(model, spec);
    },
  };
}

/** The local model server's wire a scripted model speaks in a CLI sample: the program's own API. */
export function scriptedWireFor(spec: AgentCliSpec): 'openai' | 'anthropic' | 'responses' {
  return spec.api === 'anthropic' ? 'anthropic' : spec.api === 'openai-responses' ? 'responses' : 'openai';
}
