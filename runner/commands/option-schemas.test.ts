import { Command, CommanderError, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildProgram } from '../program.js';
import { addCommandOptions, commandOptions, isSettingOption, setting } from '../settings/setting-flags.js';
import { wholeNumber } from '../settings/shared-flags.js';

/** Every command below the program, with its path (`images pull`). */
function commandsOf(command: Command, prefix = ''): { path: string; command: Command }[] {
  return command.commands.flatMap((c) => {
    const path = `${prefix}${c.name()}`;
    return [{ path, command: c }, ...commandsOf(c, `${path} `)];
  });
}

/** Options of the program's commands that no schema made: `command: --flag`. */
function handMade(program: Command): string[] {
  return commandsOf(program).flatMap(({ path, command }) => command.options.filter((o) => !isSettingOption(o)).map((o) => `${path}: ${o.flags}`));
}

/** The usage error the program gives ARGS before its action would run (the CLI exits 2 on it), or none. */
async function usageError(args: string[]): Promise<{ code: string; message: string } | undefined> {
  const program = buildProgram();
  for (const { command } of commandsOf(program)) command.configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  program.configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  program.hook('preAction', () => {
    throw new Error('the action would run');
  });
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return { code: err.code, message: err.message };
    return undefined;
  }
  return undefined;
}

describe('every command takes its flags from an options schema', () => {
  it('no command declares an option by hand', () => {
    expect(handMade(buildProgram()), 'give the option a field with setting(...) in the command’s options schema').toEqual([]);
  });

  it('the check catches an option declared by hand', () => {
    const program = buildProgram();
    program.commands.find((c) => c.name() === 'classify')!.option('--by-hand <n>', 'declared with .option()');
    program.commands.find((c) => c.name() === 'images')!.commands[0]!.addOption(new Option('--also <x>', 'with new Option()'));
    expect(handMade(program)).toEqual(['classify: --by-hand <n>', 'images build: --also <x>']);
  });

  it.each([
    ['classify', ['classify', 'latest', '--model', 'scripted/judge', '--concurrency', '0']],
    ['mutate', ['mutate', '--dataset', 'builtin:lcb', '--type', 'oneoff', '--out', 'x.jsonl', '--concurrency', '0']],
    ['audit', ['audit', '--dataset', 'builtin:lcb', '--concurrency', '0']],
    ['monitor', ['monitor', 'latest', '--static', '--concurrency', '0']],
    ['images pull', ['images', 'pull', '--concurrency', '0']],
    ['demo', ['demo', '--concurrency', '0']],
  ])('%s --concurrency 0 is a usage error that names the flag and the value', async (_name, args) => {
    expect(await usageError(args)).toEqual({
      code: 'commander.invalidArgument',
      message: `error: option '--concurrency <n>' argument '0' is invalid. expected a whole number ≥ 1, got "0"`,
    });
  });

  it('a required option, a choice and a --no- flag are checked as commander checks them', async () => {
    expect((await usageError(['mutate', '--dataset', 'builtin:lcb', '--out', 'x.jsonl']))?.message).toBe(
      "error: required option '--type <type>' not specified",
    );
    expect((await usageError(['mutate', '--dataset', 'builtin:lcb', '--type', 'twice', '--out', 'x.jsonl']))?.message).toContain(
      'Allowed choices are oneoff, conflicting',
    );
    expect((await usageError(['classify', 'latest']))?.message).toBe("error: required option '--model <spec>' not specified");
    expect(await usageError(['audit', '--dataset', 'builtin:lcb', '--no-docker'])).toBeUndefined();
  });
});

describe('commandOptions', () => {
  const Schema = z.object({
    count: setting(z.number().int().min(1).max(5).default(2), { flag: '--count <n>', help: 'how many', parse: wholeNumber(1) }),
    redo: setting(z.boolean().optional(), { flag: '--redo', help: 'again' }),
    docker: setting(z.boolean().default(true), { flag: '--no-docker', help: 'no sandboxes' }),
    name: setting(z.string(), { flag: '-n, --name <name>', help: 'who' }),
  });

  async function parse(args: string[]): Promise<z.output<typeof Schema>> {
    const command = new Command('x').exitOverride().configureOutput({ writeErr: () => undefined });
    let out: z.output<typeof Schema> | undefined;
    addCommandOptions(command, Schema).action(() => {
      out = commandOptions(command, Schema);
    });
    await command.parseAsync(args, { from: 'user' });
    return out!;
  }

  it('gives the schema’s values: defaults filled, switches, --no- flags and short aliases read', async () => {
    expect(await parse(['--name', 'a'])).toEqual({ count: 2, docker: true, name: 'a' });
    expect(await parse(['-n', 'b', '--redo', '--no-docker', '--count', '3'])).toEqual({ count: 3, redo: true, docker: false, name: 'b' });
  });

  it('a value the parser lets through but the schema refuses is a usage error naming the flag', async () => {
    const err = await parse(['--name', 'a', '--count', '9']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommanderError);
    expect((err as CommanderError).exitCode).toBe(2);
    expect((err as CommanderError).message).toMatch(/^error: option '--count <n>' argument '9' is invalid\. /);
  });
});
