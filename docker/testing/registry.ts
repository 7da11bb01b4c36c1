import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import * as tar from 'tar-stream';

/**
 * A registry of our own on 127.0.0.1 that speaks enough of the Docker Registry HTTP API v2 for the
 * engine to pull from it (and for the size lookup to read it): bearer-token auth as Docker Hub
 * does it, manifests and blobs. It serves the same tiny one-layer image under every repository and
 * tag it is asked for, except names listed as absent.
 */
export interface TestRegistry {
  /** `127.0.0.1:PORT`, the first part of an image name on this registry. */
  host: string;
  /** Compressed bytes of the image's layer plus its config: what the size lookup should report. */
  imageBytes: number;
  /** Repositories (without the host) the registry must answer 404 for. */
  absent: Set<string>;
  /** Manifest requests seen, by repository. */
  requests: string[];
  close(): Promise<void>;
}

const MANIFEST = 'application/vnd.docker.distribution.manifest.v2+json';

async function layerTar(): Promise<Buffer> {
  const pack = tar.pack();
  pack.entry({ name: 'hello.txt', mode: 0o644 }, 'an image served by the test registry\n');
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha = (data: Buffer | string) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

export async function startTestRegistry(): Promise<TestRegistry> {
  const raw = await layerTar();
  const layer = gzipSync(raw);
  const config = Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', config: {}, rootfs: { type: 'layers', diff_ids: [sha(raw)] } }));
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: MANIFEST,
      config: { mediaType: 'application/vnd.docker.container.image.v1+json', size: config.length, digest: sha(config) },
      layers: [{ mediaType: 'application/vnd.docker.image.rootfs.diff.tar.gzip', size: layer.length, digest: sha(layer) }],
    }),
  );
  const blobs = new Map([
    [sha(layer), layer],
    [sha(config), config],
  ]);
  const token = randomBytes(16).toString('hex');
  const absent = new Set<string>();
  const requests: string[] = [];
  let host = '';

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', `http://${host}`);
    if (url.pathname === '/token') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ token }));
      return;
    }
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, {
        'WWW-Authenticate': `Bearer realm="http://${host}/token",service="test-registry"`,
        'Docker-Distribution-API-Version': 'registry/2.0',
      });
      res.end();
      return;
    }
    if (url.pathname === '/v2/') {
      res.writeHead(200, { 'Docker-Distribution-API-Version': 'registry/2.0' }).end('{}');
      return;
    }
    const m = /^\/v2\/(.+)\/(manifests|blobs)\/([^/]+)$/.exec(url.pathname);
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    const [, repository, kind, reference] = m as unknown as [string, string, string, string];
    if (kind === 'manifests') {
      requests.push(repository);
      if (absent.has(repository)) {
        res
          .writeHead(404, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ errors: [{ code: 'MANIFEST_UNKNOWN', message: 'manifest unknown' }] }));
        return;
      }
      res.writeHead(200, { 'Content-Type': MANIFEST, 'Docker-Content-Digest': sha(manifest), 'Content-Length': manifest.length });
      res.end(req.method === 'HEAD' ? undefined : manifest);
      return;
    }
    const blob = blobs.get(reference);
    if (!blob) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': blob.length, 'Docker-Content-Digest': reference });
    res.end(req.method === 'HEAD' ? undefined : blob);
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    imageBytes: layer.length + config.length,
    absent,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
