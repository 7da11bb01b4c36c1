import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { writeFileAtomic, writeWithAtomic } from '../core/atomic-write.js';
import { UserError } from '../core/errors.js';
import { cacheDir } from './paths.js';

/**
 * Datasets from the HuggingFace hub, downloaded once into the cache:
 *   CACHE/hub/datasets/OWNER/NAME/refs/REVISION        the commit that revision pointed to
 *   CACHE/hub/datasets/OWNER/NAME/SHA/manifest.json     every split's data files
 *   CACHE/hub/datasets/OWNER/NAME/SHA/files/PATH        the files, each written whole (temp + rename)
 * A revision already in the cache is used without asking the hub, so runs are reproducible and
 * work offline (`refresh` asks again); offline mode (HF_HUB_OFFLINE=1) never asks and says
 * exactly what is missing. Files already downloaded for a commit are never fetched twice.
 */

export interface HubOptions {
  /** Default HF_ENDPOINT, else https://huggingface.co. */
  endpoint?: string;
  cacheDir?: string;
  /** Default: HF_HUB_OFFLINE is set to 1/true/yes/on. */
  offline?: boolean;
  /** Default HF_TOKEN, for gated or private datasets. */
  token?: string;
  /** Branch, tag or commit. Default main. */
  revision?: string;
  /** One line per download, for progress. */
  say?: (line: string) => void;
  /** Longest wait for an answer, and longest silence inside a download. Default 60 s. */
  timeoutMs?: number;
  /** Ask the hub what the revision points to now, even when the cache has an answer. */
  refresh?: boolean;
}

const DataFileSchema = z.object({ path: z.string(), url: z.string().optional() });
const ManifestSchema = z.object({
  repo: z.string(),
  sha: z.string(),
  splits: z.record(z.string(), z.array(DataFileSchema)),
});
export type HubManifest = z.infer<typeof ManifestSchema>;

const InfoSchema = z.object({
  sha: z.string().min(1),
  siblings: z.array(z.object({ rfilename: z.string() })).default([]),
});

export function hubEndpoint(options: HubOptions = {}): string {
  return (options.endpoint ?? process.env.HF_ENDPOINT ?? 'https://huggingface.co').replace(/\/+$/, '');
}

export function isOffline(options: HubOptions = {}): boolean {
  if (options.offline !== undefined) return options.offline;
  return /^(1|true|yes|on)$/i.test(process.env.HF_HUB_OFFLINE ?? '');
}

export function checkRepoId(repo: string): void {
  if (!/^[\w.-]+\/[\w.-]+$/.test(repo) || repo.includes('..')) {
    throw new UserError(`hf:${repo}: a hub dataset is named OWNER/NAME`);
  }
}

function repoCache(repo: string, options: HubOptions): string {
  return join(cacheDir(options.cacheDir), 'hub', 'datasets', ...repo.split('/'));
}

const VARIANT_ORDER = ['original', 'oneoff', 'conflicting'];

/** The variants first, in their usual order, then every other split by name. */
export function orderSplits(names: string[]): string[] {
  const rank = (n: string) => (VARIANT_ORDER.includes(n) ? VARIANT_ORDER.indexOf(n) : VARIANT_ORDER.length);
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The split a data file belongs to, by the hub's naming conventions; undefined for other files. */
export function splitOfFile(path: string): string | undefined {
  const name = posix.basename(path);
  const m = /^([A-Za-z0-9_.]+?)(?:-\d{5}-of-\d{5}(?:-[0-9a-f]+)?)?\.(parquet|jsonl|json)$/.exec(name);
  if (!m) return undefined;
  // Repository metadata, not rows.
  if (/^(dataset_info|dataset_infos|state|config|package)$/.test(m[1]!)) return undefined;
  return m[1];
}

/**
 * The dataset's splits and their files: from the cache when the revision is there, else from
 * the hub (which is then recorded in the cache).
 */
export async function hubManifest(repo: string, options: HubOptions = {}): Promise<HubManifest & { cached: boolean }> {
  checkRepoId(repo);
  const revision = options.revision ?? 'main';
  const base = repoCache(repo, options);
  const cached = options.refresh && !isOffline(options) ? undefined : await readCachedManifest(base, revision);
  if (cached) return { ...cached, cached: true };
  if (isOffline(options)) {
    throw new UserError(
      `hf:${repo}: offline mode (HF_HUB_OFFLINE) and revision ${revision} is not in the cache (${base})`,
      'run once with the hub reachable, or unset HF_HUB_OFFLINE',
    );
  }
  const endpoint = hubEndpoint(options);
  const info = InfoSchema.safeParse(await getJson(`${endpoint}/api/datasets/${repo}/revision/${encodeURIComponent(revision)}`, repo, options));
  if (!info.success) throw new UserError(`hf:${repo}: the hub's answer about the dataset is not what was expected`);
  const splits: HubManifest['splits'] = {};
  for (const { rfilename } of info.data.siblings) {
    const split = splitOfFile(rfilename);
    if (split) (splits[split] ??= []).push({ path: rfilename });
  }
  if (Object.keys(splits).length === 0) {
    // No data files in the repository itself: use the hub's parquet conversion of it.
    const converted = z
      .record(z.string(), z.record(z.string(), z.array(z.string())))
      .safeParse(await getJson(`${endpoint}/api/datasets/${repo}/parquet`, repo, options));
    if (converted.success) {
      const configs = converted.data;
      const config = configs.default ?? Object.values(configs)[0] ?? {};
      for (const [split, urls] of Object.entries(config)) {
        splits[split] = urls.map((url, i) => ({ path: `parquet/${split}/${i}.parquet`, url }));
      }
    }
  }
  if (Object.keys(splits).length === 0) throw new UserError(`hf:${repo}: the dataset has no data files (.parquet, .jsonl, .json)`);
  for (const files of Object.values(splits)) files.sort((a, b) => a.path.localeCompare(b.path));
  const ordered = Object.fromEntries(orderSplits(Object.keys(splits)).map((name) => [name, splits[name]!]));
  const manifest: HubManifest = { repo, sha: info.data.sha, splits: ordered };
  await writeCacheFile(join(base, manifest.sha, 'manifest.json'), JSON.stringify(manifest, null, 2));
  await writeCacheFile(join(base, 'refs', revision), manifest.sha);
  return { ...manifest, cached: false };
}

async function readCachedManifest(base: string, revision: string): Promise<HubManifest | undefined> {
  const ref = join(base, 'refs', revision);
  if (!existsSync(ref)) return undefined;
  try {
    const sha = (await readFile(ref, 'utf8')).trim();
    const parsed = ManifestSchema.safeParse(JSON.parse(await readFile(join(base, sha, 'manifest.json'), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Local paths of one split's files, downloading those not in the cache yet. */
export async function hubSplitFiles(manifest: HubManifest, split: string, options: HubOptions = {}): Promise<string[]> {
  const files = manifest.splits[split];
  if (!files) {
    throw new UserError(`hf:${manifest.repo}: no split named ${split} (splits: ${Object.keys(manifest.splits).join(', ')})`);
  }
  const base = join(repoCache(manifest.repo, options), manifest.sha, 'files');
  const missing = files.filter((f) => !existsSync(join(base, f.path)));
  if (missing.length > 0 && isOffline(options)) {
    throw new UserError(
      `hf:${manifest.repo}: offline mode (HF_HUB_OFFLINE) and split ${split} is not fully in the cache; missing: ${missing
        .map((f) => f.path)
        .join(', ')}`,
      'run once with the hub reachable, or unset HF_HUB_OFFLINE',
    );
  }
  const endpoint = hubEndpoint(options);
  for (const file of missing) {
    const url = file.url ?? `${endpoint}/datasets/${manifest.repo}/resolve/${manifest.sha}/${file.path.split('/').map(encodeURIComponent).join('/')}`;
    options.say?.(`downloading hf:${manifest.repo} ${file.path}`);
    await download(url, join(base, file.path), manifest.repo, options);
  }
  return files.map((f) => join(base, f.path));
}

function headers(options: HubOptions): Record<string, string> {
  const token = options.token ?? process.env.HF_TOKEN;
  return { 'user-agent': 'impossiblebench', ...(token ? { authorization: `Bearer ${token}` } : {}) };
}

/**
 * One request, tried again when the hub is busy (429, 5xx). `timeoutMs` bounds the wait for an
 * answer and, for downloads, each silence in the body (a large file on a slow line may take long,
 * but never stall that long).
 */
async function request(url: string, repo: string, options: HubOptions, idle?: IdleTimer): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await requestOnce(url, repo, options, idle);
    // Busy or briefly broken: try again a little later (as the hub's own clients do).
    if (RETRIED.has(response.status) && attempt < ATTEMPTS) {
      await response.body?.cancel();
      const after = Number(response.headers.get('retry-after'));
      await new Promise((ok) => setTimeout(ok, Number.isFinite(after) && after >= 0 ? Math.min(after, 30) * 1000 : 1000 * 2 ** (attempt - 1)));
      idle?.reset();
      continue;
    }
    if (response.status === 401 || response.status === 403) {
      throw new UserError(`hf:${repo}: the hub refused access (HTTP ${response.status})`, 'set HF_TOKEN to a token that can read it');
    }
    if (response.status === 404) throw new UserError(`hf:${repo}: not found on the hub (${url})`);
    if (!response.ok) {
      const tries = RETRIED.has(response.status) ? ` (after ${ATTEMPTS} tries)` : '';
      throw new UserError(`hf:${repo}: the hub answered HTTP ${response.status} for ${url}${tries}`);
    }
    return response;
  }
}

const RETRIED = new Set([429, 500, 502, 503, 504]);
const ATTEMPTS = 3;

async function requestOnce(url: string, repo: string, options: HubOptions, idle?: IdleTimer): Promise<Response> {
  const timer = idle ?? new IdleTimer(options.timeoutMs ?? 60_000);
  try {
    return await fetch(url, { headers: headers(options), redirect: 'follow', signal: timer.signal });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why = timer.signal.aborted ? `no answer within ${timer.ms / 1000}s` : (cause?.code ?? cause?.message ?? (err as Error).message);
    throw new UserError(
      `hf:${repo}: cannot reach the hub at ${new URL(url).origin}: ${why}`,
      'check the network or HF_ENDPOINT, or use the cache with HF_HUB_OFFLINE=1',
    );
  } finally {
    if (!idle) timer.stop();
  }
}

async function getJson(url: string, repo: string, options: HubOptions): Promise<unknown> {
  const response = await request(url, repo, options);
  try {
    return await response.json();
  } catch {
    throw new UserError(`hf:${repo}: the hub's answer from ${url} is not JSON`);
  }
}

async function download(url: string, dest: string, repo: string, options: HubOptions): Promise<void> {
  const timer = new IdleTimer(options.timeoutMs ?? 60_000);
  try {
    const response = await request(url, repo, options, timer);
    if (!response.body) throw new UserError(`hf:${repo}: empty answer for ${url}`);
    await mkdir(dirname(dest), { recursive: true });
    const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
    body.on('data', () => timer.reset());
    await writeWithAtomic(dest, (temp) => pipeline(body, createWriteStream(temp)));
  } catch (err) {
    if (err instanceof UserError) throw err;
    const why = timer.signal.aborted ? `nothing arrived for ${timer.ms / 1000}s` : (err as Error).message;
    throw new UserError(`hf:${repo}: download of ${url} broke off: ${why}`);
  } finally {
    timer.stop();
  }
}

/** Aborts when `ms` pass without a reset. */
class IdleTimer {
  private readonly controller = new AbortController();
  private handle: NodeJS.Timeout;

  constructor(readonly ms: number) {
    this.handle = setTimeout(() => this.controller.abort(), ms);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  reset(): void {
    clearTimeout(this.handle);
    this.handle = setTimeout(() => this.controller.abort(), this.ms);
  }

  stop(): void {
    clearTimeout(this.handle);
  }
}

/** Writes a whole file or nothing (see core/atomic-write.ts), making its folder first. */
async function writeCacheFile(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  writeFileAtomic(path, content);
}
