import type Docker from 'dockerode';
import type { CommandChannel } from './channel.js';
import { withEngineDeadline } from './deadline.js';
import { SandboxError, engineMessage } from './errors.js';
import { launchOnChannel, launchOnEngine, type Launch, type Launched } from './launch.js';
import { CappedOutput } from './output.js';

/** How long the first command waits for the command server to start before using `docker exec` instead. */
const CHANNEL_START_MS = 20_000;

/**
 * One sandbox's container as its exec, kill, file and lifecycle parts share it: the way commands reach it (the command
 * channel, else `docker exec`), its state, and what a failed engine call is said as.
 */
export class SandboxContainer {
  /** Set once the sandbox is being destroyed: later failures say so instead of asking the engine why. */
  destroyed = false;
  /** Resolves true once the command channel is open; false when commands go by `docker exec`. */
  private readonly channelReady: Promise<boolean>;

  constructor(
    readonly container: Docker.Container,
    readonly channel?: CommandChannel,
  ) {
    this.channelReady = channel ? Promise.race([channel.ready, delay(CHANNEL_START_MS).then(() => false)]) : Promise.resolve(false);
  }

  alive(): void {
    if (this.destroyed) throw new SandboxError('sandbox already destroyed');
  }

  /** The command channel, once open; undefined when commands go by `docker exec`. */
  async openChannel(): Promise<CommandChannel | undefined> {
    return this.channel && (await this.channelReady) && this.channel.open ? this.channel : undefined;
  }

  /** Starts a command through the command channel when the sandbox has one, else with `docker exec`. */
  async launch(l: Launch): Promise<Launched> {
    const channel = await this.openChannel();
    if (channel) return launchOnChannel(channel, l);
    return launchOnEngine(this.container, l, (what, err) => this.explainFailure(what, err));
  }

  /** Runs a short helper command to its end (no timeout of its own) and returns its exit code and output. */
  async helper(argv: string[], user: string): Promise<{ exitCode: number | null; stdout: string }> {
    const stdout = new CappedOutput(64 * 1024);
    const launched = await this.launch({ argv, env: [], user, stdout, stderr: new CappedOutput(0) });
    const ended = await launched.ended;
    return { exitCode: ended === 'busy' ? null : ended.exitCode, stdout: stdout.text() };
  }

  /** The container's state, within the engine deadline. */
  inspect(): Promise<Docker.ContainerInspectInfo> {
    return withEngineDeadline('inspect a container', (abortSignal) => this.container.inspect({ abortSignal }));
  }

  async isRunning(): Promise<boolean> {
    try {
      return (await this.inspect()).State.Running === true;
    } catch {
      return false;
    }
  }

  async explainFailure(what: string, err: unknown): Promise<SandboxError> {
    if (this.destroyed) return new SandboxError(`${what}: the sandbox was destroyed`, { cause: err });
    // Said already (an engine that did not answer in time): asking the engine again would only wait as long.
    if (err instanceof SandboxError) return new SandboxError(`${what}: ${err.message}`, { cause: err });
    try {
      const state = (await this.inspect()).State;
      if (!state.Running) {
        const why = state.OOMKilled ? 'killed for running out of memory' : `exit code ${state.ExitCode}`;
        return new SandboxError(`${what}: the sandbox container stopped (${why})`, { cause: err });
      }
    } catch {
      return new SandboxError(`${what}: the sandbox container no longer exists`, { cause: err });
    }
    return new SandboxError(`${what}: ${engineMessage(err)}`, { cause: err });
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
