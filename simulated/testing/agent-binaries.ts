import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The agent CLIs' native binaries as a user installs them (`npm install -g`), for the tests that run the real CLIs
 * inside sandboxes. A missing binary is an error that names the install command: those tests fail, never skip.
 */

export const CODEX_INSTALL = 'npm install -g @openai/codex@0.171.0';
export const CLAUDE_CODE_INSTALL = 'npm install -g @anthropic-ai/claude-code@2.1.332';

function globalRoot(): string {
  return execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim();
}

function firstExisting(candidates: string[], what: string, install: string): string {
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`${what} is not installed (looked for ${candidates.join(', ')}): install it with \`${install}\``);
  return found;
}

/** Codex CLI's static (musl) binary: under its package, or hoisted beside it. */
export function codexBinary(root = globalRoot()): string {
  const [pkg, triple] =
    process.arch === 'arm64' ? ['codex-linux-arm64', 'aarch64-unknown-linux-musl'] : ['codex-linux-x64', 'x86_64-unknown-linux-musl'];
  const inPackage = (base: string) => join(base, '@openai', pkg, 'vendor', triple, 'bin', 'codex');
  return firstExisting([inPackage(join(root, '@openai', 'codex', 'node_modules')), inPackage(root)], 'Codex CLI', CODEX_INSTALL);
}

/** Claude Code's native binary (glibc): the package's `bin/claude.exe`, or the platform package's `claude`. */
export function claudeCodeBinary(root = globalRoot()): string {
  const pkg = process.arch === 'arm64' ? 'claude-code-linux-arm64' : 'claude-code-linux-x64';
  const main = join(root, '@anthropic-ai', 'claude-code');
  return firstExisting(
    [join(main, 'bin', 'claude.exe'), join(main, 'node_modules', '@anthropic-ai', pkg, 'claude'), join(root, '@anthropic-ai', pkg, 'claude')],
    'Claude Code',
    CLAUDE_CODE_INSTALL,
  );
}
