import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Where a user's `npm install -g` puts packages on this machine. */
function globalRoot(): string {
  return execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim();
}

function firstExisting(what: string, install: string, candidates: string[]): string {
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`${what} is not installed globally (looked in ${candidates.join(', ')}): npm install -g ${install}`);
  return found;
}

/** The native Codex binary (static musl) of a global `@openai/codex` install, nested or hoisted. */
export function codexBinary(): string {
  const root = globalRoot();
  const vendor = join('@openai', 'codex-linux-x64', 'vendor', 'x86_64-unknown-linux-musl', 'bin', 'codex');
  return firstExisting('the Codex CLI', '@openai/codex', [join(root, '@openai', 'codex', 'node_modules', vendor), join(root, vendor)]);
}

/** The native Claude Code binary (glibc) of a global `@anthropic-ai/claude-code` install. */
export function claudeBinary(): string {
  const root = globalRoot();
  return firstExisting('Claude Code', '@anthropic-ai/claude-code', [
    join(root, '@anthropic-ai', 'claude-code', 'bin', 'claude.exe'),
    join(root, '@anthropic-ai', 'claude-code-linux-x64', 'claude'),
    join(root, '@anthropic-ai', 'claude-code', 'node_modules', '@anthropic-ai', 'claude-code-linux-x64', 'claude'),
  ]);
}
