import { z } from 'zod';
import { UserError } from '../../core/errors.js';
import { MODEL_APIS, type ModelApi } from '../../core/model.js';
import { BUILTIN_SCAFFOLDS, SCAFFOLD_NAME_PATTERN, type ScaffoldName } from '../../core/record.js';

/**
 * An agent program (a coding-agent CLI) run as a scaffold: how it is started in the sandbox and which model API it
 * speaks. Codex CLI and Claude Code are built in; a config file may describe others (`agentClis:`).
 */

/** What an argument or an environment value may name: filled in per sample. */
export const CLI_PLACEHOLDERS = {
  prompt: 'the instructions and the task (only with prompt: arg)',
  model: 'the name the provider knows the model by',
  baseUrl: "the proxy's address inside the sandbox, http://127.0.0.1:PORT (no /v1)",
  port: "the proxy's port inside the sandbox",
  key: 'the per-sample key that opens the proxy (never the real one)',
  home: "the agent program's own writable folder",
} as const;
export type CliPlaceholder = keyof typeof CLI_PLACEHOLDERS;

const PLACEHOLDER = /\{\{(\w+)\}\}/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function knownPlaceholders(text: string): boolean {
  return [...text.matchAll(PLACEHOLDER)].every((m) => Object.hasOwn(CLI_PLACEHOLDERS, m[1]!));
}
const templated = z.string().refine(knownPlaceholders, {
  error: `uses a placeholder it does not have; the placeholders: ${Object.keys(CLI_PLACEHOLDERS)
    .map((p) => `{{${p}}}`)
    .join(', ')}`,
});

export const AgentCliSpecSchema = z
  .strictObject({
    /** The scaffold's name, as `--scaffold` takes it. */
    name: z
      .string()
      .regex(SCAFFOLD_NAME_PATTERN, 'must be lowercase letters, digits and hyphens, starting with a letter')
      .refine((n) => !(BUILTIN_SCAFFOLDS as readonly string[]).includes(n), {
        error: `must differ from the built-in scaffolds (${BUILTIN_SCAFFOLDS.join(', ')})`,
      }),
    /** The program on this machine (the engine's host): an absolute path, or a command found on PATH. */
    binary: z.string().min(1),
    /** Its arguments, with placeholders (`{{prompt}}`, `{{model}}`, `{{baseUrl}}`, ...). */
    args: z.array(templated).default([]),
    /** How the prompt reaches it: as an argument (`{{prompt}}` in `args`) or on its standard input. */
    prompt: z.enum(['arg', 'stdin']).default('arg'),
    /** The model API it speaks: the proxy forwards only that API's model route. */
    api: z.enum(MODEL_APIS),
    /** Its environment, with the same placeholders (`OPENAI_BASE_URL: "{{baseUrl}}/v1"`, `OPENAI_API_KEY: "{{key}}"`). */
    env: z.record(z.string(), templated).default({}),
    /** Variables that point at its own writable folder (where it keeps settings and sessions). */
    home: z.array(z.string().regex(ENV_NAME, 'variable names are letters, digits and underscores')).default(['HOME']),
    /** The command that installs it, said when it is missing. */
    install: z.string().min(1).optional(),
  })
  .superRefine((spec, ctx) => {
    const inArgs = spec.args.some((a) => a.includes('{{prompt}}'));
    if (spec.prompt === 'arg' && !inArgs) ctx.addIssue({ code: 'custom', path: ['args'], message: 'must hold {{prompt}} when prompt is arg' });
    if (spec.prompt === 'stdin' && inArgs) ctx.addIssue({ code: 'custom', path: ['args'], message: 'holds {{prompt}}, but prompt is stdin' });
    for (const [name, value] of Object.entries(spec.env)) {
      if (!ENV_NAME.test(name)) ctx.addIssue({ code: 'custom', path: ['env', name], message: 'variable names are letters, digits and underscores' });
      if (value.includes('{{prompt}}')) ctx.addIssue({ code: 'custom', path: ['env', name], message: 'may not hold {{prompt}}' });
    }
  });
export type AgentCliSpec = z.infer<typeof AgentCliSpecSchema>;
export type AgentCliSpecInput = z.input<typeof AgentCliSpecSchema>;

/** How a built-in agent program is found where a user installed it (see `binaries.ts`). */
export interface BuiltinLocation {
  /** The variable that names the binary and wins over everything else. */
  envVar: string;
  /** Its npm package, installed globally. */
  npmPackage: string;
  /** The command the package puts on PATH. */
  command: string;
  /** The native binary inside the package folder (`pkg`) or beside it (`scope`, hoisted), by Node's arch name. */
  native(pkg: string, scope: string, arch: string): string[];
}

export interface BuiltinAgentCli {
  spec: AgentCliSpec;
  location: BuiltinLocation;
}

const MUSL: Record<string, string> = { x64: 'x86_64-unknown-linux-musl', arm64: 'aarch64-unknown-linux-musl' };

/** Pinned as CI installs them: what the dialects of the local model server were read from. */
export const CODEX_INSTALL = 'npm install -g @openai/codex@0.171.0';
export const CLAUDE_CODE_INSTALL = 'npm install -g @anthropic-ai/claude-code@2.1.332';

export const BUILTIN_AGENT_CLIS: Record<'codex' | 'claude-code', BuiltinAgentCli> = {
  codex: {
    spec: {
      name: 'codex',
      binary: 'codex',
      // One non-interactive turn, approvals and Codex's own sandbox off (ours holds it), the proxy as its provider.
      // Analytics off: with no network, its export of metrics at exit waits ~5 s for a connection that never comes.
      args: [
        'exec',
        '--skip-git-repo-check',
        '--dangerously-bypass-approvals-and-sandbox',
        '-c',
        'analytics.enabled=false',
        '-m',
        '{{model}}',
        '-c',
        'model_providers.ib={name="ib", base_url="{{baseUrl}}/v1", env_key="IB_KEY", wire_api="responses"}',
        '-c',
        'model_provider="ib"',
        '{{prompt}}',
      ],
      prompt: 'arg',
      api: 'openai-responses',
      env: { IB_KEY: '{{key}}' },
      home: ['HOME', 'CODEX_HOME'],
      install: CODEX_INSTALL,
    },
    location: {
      envVar: 'IMPOSSIBLEBENCH_CODEX_BIN',
      npmPackage: '@openai/codex',
      command: 'codex',
      native: (pkg, scope, arch) => {
        const tail = `vendor/${MUSL[arch] ?? MUSL.x64}/bin/codex`;
        return [`${pkg}/node_modules/@openai/codex-linux-${arch}/${tail}`, `${scope}/codex-linux-${arch}/${tail}`, `${pkg}/${tail}`];
      },
    },
  },
  'claude-code': {
    spec: {
      name: 'claude-code',
      binary: 'claude',
      args: ['-p', '{{prompt}}', '--dangerously-skip-permissions', '--model', '{{model}}'],
      prompt: 'arg',
      api: 'anthropic',
      env: {
        ANTHROPIC_BASE_URL: '{{baseUrl}}',
        ANTHROPIC_API_KEY: '{{key}}',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
      home: ['HOME'],
      install: CLAUDE_CODE_INSTALL,
    },
    location: {
      envVar: 'IMPOSSIBLEBENCH_CLAUDE_CODE_BIN',
      npmPackage: '@anthropic-ai/claude-code',
      command: 'claude',
      native: (pkg, scope, arch) => [
        `${pkg}/bin/claude.exe`,
        `${pkg}/node_modules/@anthropic-ai/claude-code-linux-${arch}/claude`,
        `${scope}/claude-code-linux-${arch}/claude`,
      ],
    },
  },
};

export function isBuiltinAgentCli(name: string): name is keyof typeof BUILTIN_AGENT_CLIS {
  return Object.hasOwn(BUILTIN_AGENT_CLIS, name);
}

/** `agentClis[1].env.X` from a zod issue path. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
}

/** The agent programs a config describes, each validated with errors that name the entry and the field. */
export function parseAgentClis(input: unknown, where: string): AgentCliSpec[] {
  const parsed = z.array(z.unknown()).safeParse(input ?? []);
  if (!parsed.success) throw new UserError(`${where}: agentClis must be a list of agent programs`);
  const specs = parsed.data.map((entry, i) => {
    const name = typeof entry === 'object' && entry && 'name' in entry ? ` (${String(entry.name)})` : '';
    const one = AgentCliSpecSchema.safeParse(entry);
    if (one.success) return one.data;
    const issue = one.error.issues[0]!;
    const field = issue.code === 'unrecognized_keys' ? `.${issue.keys[0]}` : fieldPath(issue.path);
    const message = issue.code === 'unrecognized_keys' ? 'is not a field of an agent program' : issue.message;
    throw new UserError(`${where}: agentClis[${i}]${name}${field}: ${message}`);
  });
  const seen = new Set<string>();
  for (const [i, s] of specs.entries()) {
    if (seen.has(s.name)) throw new UserError(`${where}: agentClis[${i}].name: ${s.name} is described twice`);
    seen.add(s.name);
  }
  return specs;
}

/** The agent program a scaffold names, if it is one: built in, or described in the config. */
export function agentCliFor(scaffold: ScaffoldName, configured: readonly AgentCliSpec[]): AgentCliSpec | undefined {
  if (isBuiltinAgentCli(scaffold)) return BUILTIN_AGENT_CLIS[scaffold].spec;
  return configured.find((c) => c.name === scaffold);
}

/** Whether a scaffold is an agent program rather than one of our loops. */
export function isAgentCliScaffold(scaffold: ScaffoldName): boolean {
  return scaffold !== 'minimal' && scaffold !== 'full';
}

/** Fills a text's placeholders. */
export function fillPlaceholders(text: string, values: Record<CliPlaceholder, string>): string {
  return text.replace(PLACEHOLDER, (whole, key: string) => (Object.hasOwn(values, key) ? values[key as CliPlaceholder] : whole));
}

export type { ModelApi };
