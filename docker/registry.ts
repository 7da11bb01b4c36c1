import { z } from 'zod';

/**
 * Reads an image's manifest from its registry (the Docker Registry HTTP API v2, with the bearer
 * token challenge Docker Hub and most registries use) to learn the compressed size of its layers
 * before pulling it. Only the sizes are read; the engine does the pull itself.
 */

export interface ImageRef {
  /** The registry's host (`registry-1.docker.io` for Docker Hub), with its port. */
  host: string;
  repository: string;
  /** A tag or a digest. */
  reference: string;
}

const HUB = 'registry-1.docker.io';

/** `swebench/x:1`, `ghcr.io/org/x@sha256:…`, `127.0.0.1:5000/x`: the registry, repository and reference. */
export function parseImageRef(name: string): ImageRef {
  let rest = name;
  let reference = 'latest';
  const at = rest.indexOf('@');
  if (at >= 0) {
    reference = rest.slice(at + 1);
    rest = rest.slice(0, at);
  } else {
    const colon = rest.lastIndexOf(':');
    if (colon > rest.lastIndexOf('/')) {
      reference = rest.slice(colon + 1);
      rest = rest.slice(0, colon);
    }
  }
  const parts = rest.split('/');
  const first = parts[0]!;
  const isHost = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost');
  const host = isHost ? first : HUB;
  let repository = (isHost ? parts.slice(1) : parts).join('/');
  if (host === HUB && !repository.includes('/')) repository = `library/${repository}`;
  return { host: host === 'docker.io' || host === 'index.docker.io' ? HUB : host, repository, reference };
}

const Descriptor = z.object({ digest: z.string(), size: z.number().int().nonnegative(), mediaType: z.string().optional() });
const Manifest = z.object({ config: Descriptor, layers: z.array(Descriptor) });
const Index = z.object({
  manifests: z.array(Descriptor.extend({ platform: z.object({ architecture: z.string(), os: z.string() }).optional() })),
});
const Token = z.union([z.object({ token: z.string() }), z.object({ access_token: z.string() })]);

const ACCEPT = [
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
  'application/vnd.oci.image.manifest.v1+json',
].join(', ');

export interface LayerSizes {
  /** Each layer's digest and compressed size; layers shared between images have the same digest. */
  layers: { digest: string; size: number }[];
  configSize: number;
}

export interface RegistryOptions {
  /** `x86_64` or `arm64`: which image of a multi-platform index. */
  arch?: string;
  signal?: AbortSignal;
  /** Per request; default 20 s. */
  timeoutMs?: number;
}

/** Loopback registries speak plain HTTP, as the engine assumes; every other registry HTTPS. */
function baseUrl(host: string): string {
  const name = host.replace(/:\d+$/, '');
  const loopback = name === 'localhost' || name.startsWith('127.') || name === '[::1]';
  return `${loopback ? 'http' : 'https'}://${host}`;
}

/** `Bearer realm="…",service="…",scope="…"` → its parameters. */
function challenge(header: string | null): Record<string, string> | undefined {
  if (!header || !/^bearer\s/i.test(header)) return undefined;
  const params: Record<string, string> = {};
  for (const m of header.slice(7).matchAll(/(\w+)="([^"]*)"/g)) params[m[1]!.toLowerCase()] = m[2]!;
  return params.realm ? params : undefined;
}

/** The layer sizes of one image, for this machine's platform when the tag names a multi-platform index. */
export async function imageLayerSizes(name: string, options: RegistryOptions = {}): Promise<LayerSizes> {
  const ref = parseImageRef(name);
  const base = `${baseUrl(ref.host)}/v2/${ref.repository}`;
  let token: string | undefined;
  const get = async (url: string): Promise<unknown> => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const signal = AbortSignal.any([AbortSignal.timeout(options.timeoutMs ?? 20_000), ...(options.signal ? [options.signal] : [])]);
      const res = await fetch(url, { headers: { Accept: ACCEPT, ...(token ? { Authorization: `Bearer ${token}` } : {}) }, signal });
      if (res.status === 401 && !token) {
        const params = challenge(res.headers.get('www-authenticate'));
        if (!params) throw new Error(`${ref.host} asks for credentials this tool does not have`);
        const auth = new URL(params.realm!);
        if (params.service) auth.searchParams.set('service', params.service);
        auth.searchParams.set('scope', params.scope ?? `repository:${ref.repository}:pull`);
        const tokenRes = await fetch(auth, { signal });
        if (!tokenRes.ok) throw new Error(`the token service of ${ref.host} answered HTTP ${tokenRes.status}`);
        const body = Token.parse(await tokenRes.json());
        token = 'token' in body ? body.token : body.access_token;
        continue;
      }
      if (res.status === 404) throw new Error(`${ref.host} has no ${ref.repository}:${ref.reference}`);
      if (!res.ok) throw new Error(`${ref.host} answered HTTP ${res.status} for ${ref.repository}:${ref.reference}`);
      return res.json();
    }
    throw new Error(`${ref.host} refused the token it issued`);
  };
  let body = await get(`${base}/manifests/${ref.reference}`);
  const index = Index.safeParse(body);
  if (index.success && !Manifest.safeParse(body).success) {
    const want = options.arch === 'arm64' ? 'arm64' : 'amd64';
    const entry = index.data.manifests.find((m) => m.platform?.os === 'linux' && m.platform.architecture === want);
    if (!entry) throw new Error(`${name} has no linux/${want} image`);
    body = await get(`${base}/manifests/${entry.digest}`);
  }
  const manifest = Manifest.safeParse(body);
  if (!manifest.success) throw new Error(`${ref.host} sent a manifest for ${name} this tool cannot read`);
  return { layers: manifest.data.layers.map((l) => ({ digest: l.digest, size: l.size })), configSize: manifest.data.config.size };
}
