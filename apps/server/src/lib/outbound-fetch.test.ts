import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from './app-error.js';
import { classifyAddress, createOutboundFetch, OutboundError, type ResolvedAddress } from './outbound-fetch.js';

/** A real HTTP server that records what reaches it; `handle` answers. */
type Recorder = { server: http.Server; url: string; host: string; calls: string[] };

async function startRecorder(
  handle: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void,
  address = '127.0.0.1',
): Promise<Recorder> {
  const calls: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      calls.push(`${req.method} ${req.url}${body ? ` ${body}` : ''}`);
      handle(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const port = (server.address() as AddressInfo).port;
  const host = address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
  return { server, url: `http://${host}`, host, calls };
}

function redirect(res: http.ServerResponse, location: string, status = 302) {
  res.statusCode = status;
  res.setHeader('location', location);
  res.end();
}

/** What a rejected promise threw. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the fetch to fail');
}

let target: Recorder;
let other: Recorder;
let hanging: http.Server;
let hangingHost: string;

beforeAll(async () => {
  other = await startRecorder((_req, res) => res.end('other'));
  target = await startRecorder((req, res) => {
    const path = req.url ?? '/';
    if (path === '/ok') return void res.end(JSON.stringify({ ok: true }));
    if (path === '/hop') return redirect(res, '/ok');
    if (path === '/see-other') return redirect(res, `${other.url}/from-target`, 303);
    if (path === '/to-other') return redirect(res, `${other.url}/secret`, 307);
    if (path === '/to-localhost') return redirect(res, `http://localhost:${new URL(target.url).port}/ok`);
    if (path === '/to-metadata') return redirect(res, 'http://169.254.169.254/latest/meta-data/');
    if (path === '/to-file') return redirect(res, 'file:///etc/passwd');
    if (path === '/loop') return redirect(res, '/loop');
    if (path === '/big') return void res.end('x'.repeat(2048));
    res.statusCode = 404;
    res.end();
  });
  // Accepts, sends headers, then never finishes the body.
  hanging = http.createServer((req, res) => {
    if (req.url === '/slow-body') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    }
  });
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  hangingHost = `127.0.0.1:${(hanging.address() as AddressInfo).port}`;
});
afterAll(async () => {
  hanging.closeAllConnections();
  for (const server of [target.server, other.server, hanging]) await new Promise((resolve) => server.close(resolve));
});

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.12.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['169.254.10.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['ff02::1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.10', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['172.32.0.1', 'public'],
    ['93.184.215.14', 'public'],
    ['2606:4700::1111', 'public'],
    ['64:ff9b::5db8:d70e', 'public'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe('createOutboundFetch', () => {
  it('refuses loopback by default however it is written, and never connects', async () => {
    const outbound = createOutboundFetch({ allowPrivate: true });
    const port = new URL(target.url).port;
    for (const url of [
      `${target.url}/ok`,
      `http://127.1:${port}/ok`,
      `http://2130706433:${port}/ok`,
      `http://0x7f.0.0.1:${port}/ok`,
      `http://[::1]:${port}/ok`,
      `http://[::ffff:127.0.0.1]:${port}/ok`,
      `http://0.0.0.0:${port}/ok`,
    ]) {
      const error = await failure(outbound(url));
      expect(error, url).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('ValidationError');
      expect((error as AppError).message).toMatch(/not allowed/);
    }
    expect(target.calls).toEqual([]);
  });

  it('refuses a host name that resolves to loopback, and cloud metadata names', async () => {
    const outbound = createOutboundFetch({ allowPrivate: true });
    const error = await failure(outbound(`http://localhost:${new URL(target.url).port}/ok`));
    expect((error as AppError).code).toBe('ValidationError');
    expect(target.calls).toEqual([]);
    const lookups: string[] = [];
    const spying = createOutboundFetch({
      allowPrivate: true,
      resolve: async (hostname) => {
        lookups.push(hostname);
        return [{ address: '93.184.215.14', family: 4 }];
      },
    });
    for (const name of ['metadata.google.internal', 'METADATA.GOOGLE.INTERNAL.', 'metadata.goog', 'instance-data.ec2.internal']) {
      expect(((await failure(spying(`http://${name}/computeMetadata/v1/`))) as AppError).message).toMatch(/not allowed/);
    }
    expect(lookups).toEqual([]);
  });

  it('refuses a name when any of its addresses is refused', async () => {
    const outbound = createOutboundFetch({
      allowPrivate: false,
      resolve: async () => [
        { address: '93.184.215.14', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
    });
    expect(((await failure(outbound('http://mixed.example/'))) as AppError).code).toBe('ValidationError');
  });

  it('looks the name up once and connects to the address it checked (no rebinding)', async () => {
    const answers: ResolvedAddress[][] = [
      [{ address: '127.0.0.1', family: 4 }],
      [{ address: '169.254.169.254', family: 4 }],
    ];
    let lookups = 0;
    const port = new URL(target.url).port;
    const outbound = createOutboundFetch({
      allowPrivate: false,
      allowLoopbackHosts: [`cms.test:${port}`],
      resolve: async () => answers[lookups++]!,
    });
    const res = await outbound(`http://cms.test:${port}/ok`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(lookups).toBe(1);
    target.calls.length = 0;
  });

  it('follows redirects on allowed hosts and checks every hop', async () => {
    const outbound = createOutboundFetch({ allowPrivate: false, allowLoopbackHosts: [target.host] });
    const followed = await outbound(`${target.url}/hop`);
    expect(followed.status).toBe(200);
    expect(target.calls).toEqual(['GET /hop', 'GET /ok']);

    for (const path of ['/see-other', '/to-other', '/to-localhost', '/to-metadata']) {
      const error = await failure(outbound(`${target.url}${path}`));
      expect(error, path).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('ExternalServiceError');
      expect((error as AppError).message).toMatch(/not allowed/);
    }
    expect(other.calls).toEqual([]);
    expect(target.calls.filter((c) => c.includes('/ok'))).toEqual(['GET /ok']);

    const file = await failure(outbound(`${target.url}/to-file`));
    expect((file as AppError).message).toMatch(/http or https/);
    const loop = await failure(outbound(`${target.url}/loop`));
    expect(loop).toBeInstanceOf(OutboundError);
    expect((loop as OutboundError).reason).toBe('redirects');
    expect(target.calls.filter((c) => c === 'GET /loop')).toHaveLength(4);
    target.calls.length = 0;
  });

  it('never resends a request body to another origin', async () => {
    const outbound = createOutboundFetch({ allowPrivate: false, allowLoopbackHosts: [target.host, other.host] });
    const body = JSON.stringify({ password: 'secret' });
    const kept = await failure(outbound(`${target.url}/to-other`, { method: 'POST', body }));
    expect((kept as AppError).code).toBe('ExternalServiceError');
    expect(other.calls).toEqual([]);
    const seeOther = await outbound(`${target.url}/see-other`, { method: 'POST', body, headers: { authorization: 'Bearer t' } });
    expect(await seeOther.text()).toBe('other');
    expect(other.calls).toEqual(['GET /from-target']);
    other.calls.length = 0;
    target.calls.length = 0;
  });

  it('refuses private ranges unless OUTBOUND_ALLOW_PRIVATE, and metadata even then', async () => {
    const lan = async (): Promise<ResolvedAddress[]> => [{ address: '10.0.0.5', family: 4 }];
    const strict = createOutboundFetch({ allowPrivate: false, resolve: lan });
    const refused = await failure(strict('http://cms.lan/'));
    expect((refused as AppError).code).toBe('ValidationError');
    expect((refused as AppError).message).toMatch(/OUTBOUND_ALLOW_PRIVATE=1/);
    expect(((await failure(strict('http://192.168.1.10/'))) as AppError).code).toBe('ValidationError');
    const lenient = createOutboundFetch({ allowPrivate: true });
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://100.100.100.200/', 'http://[fd00:ec2::254]/']) {
      expect(((await failure(lenient(url))) as AppError).message, url).toMatch(/not allowed/);
    }
  });

  const privateAddress = Object.values(os.networkInterfaces())
    .flat()
    .find((i) => i && !i.internal && classifyAddress(i.address) === 'private')?.address;

  it.skipIf(!privateAddress)('fetches a private address of this machine only with OUTBOUND_ALLOW_PRIVATE', async () => {
    const lan = await startRecorder((_req, res) => res.end('lan'), privateAddress);
    try {
      const refused = await failure(createOutboundFetch({ allowPrivate: false })(`${lan.url}/`));
      expect((refused as AppError).code).toBe('ValidationError');
      expect(lan.calls).toEqual([]);
      const res = await createOutboundFetch({ allowPrivate: true })(`${lan.url}/`);
      expect(await res.text()).toBe('lan');
      expect(lan.calls).toEqual(['GET /']);
    } finally {
      await new Promise((resolve) => lan.server.close(resolve));
    }
  });

  it('times out when the server does not answer, or stops sending', async () => {
    const outbound = createOutboundFetch({ allowPrivate: false, allowLoopbackHosts: [hangingHost], timeoutMs: 300 });
    for (const path of ['/silent', '/slow-body']) {
      const started = Date.now();
      const error = await failure(outbound(`http://${hangingHost}${path}`).then((res) => res.text()));
      expect(error, path).toBeInstanceOf(OutboundError);
      expect((error as OutboundError).reason).toBe('timeout');
      expect(Date.now() - started).toBeLessThan(2_000);
    }
  });

  it('streams an answer of any size when asked, and times out a body that stops', async () => {
    const outbound = createOutboundFetch({ allowPrivate: false, allowLoopbackHosts: [target.host, hangingHost], maxBodyBytes: 1024 });
    const big = await outbound(`${target.url}/big`, { stream: true });
    expect(big.status).toBe(200);
    expect(await big.text()).toBe('x'.repeat(2048));
    const started = Date.now();
    const stalled = await outbound(`http://${hangingHost}/slow-body`, { stream: true, timeoutMs: 300, idleTimeoutMs: 300 });
    expect(stalled.status).toBe(200);
    const error = await failure(stalled.text());
    expect(error).toBeInstanceOf(Error);
    expect(Date.now() - started).toBeLessThan(2_000);
    const silent = await failure(outbound(`http://${hangingHost}/silent`, { stream: true, timeoutMs: 300 }));
    expect((silent as OutboundError).reason).toBe('timeout');
    target.calls.length = 0;
  });

  it('refuses other schemes and answers larger than the limit', async () => {
    const outbound = createOutboundFetch({ allowPrivate: false, allowLoopbackHosts: [target.host], maxBodyBytes: 1024 });
    for (const url of ['ftp://example.com/x', 'file:///etc/passwd', 'not a url']) {
      expect(((await failure(outbound(url))) as AppError).code, url).toBe('ValidationError');
    }
    const big = await failure(outbound(`${target.url}/big`));
    expect((big as OutboundError).reason).toBe('too-large');
  });
});
