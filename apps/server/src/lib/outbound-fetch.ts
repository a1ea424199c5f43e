import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { AppError } from './app-error.js';
import { ipv6Groups } from './ip-address.js';

/**
 * The one HTTP client for URLs that users configure (the content manager today). It refuses
 * loopback, link-local, cloud metadata, unspecified and reserved addresses always, and private
 * ranges unless OUTBOUND_ALLOW_PRIVATE=1, after resolving the name itself; it connects to the
 * address it checked (no second lookup that DNS rebinding could answer differently), checks every
 * redirect hop the same way, speaks only http and https, bounds the answer's size and times out.
 */
export type OutboundFetch = (url: string, request?: OutboundRequest) => Promise<Response>;

export type OutboundRequest = {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Whole request, redirects and body included; default the client's `timeoutMs`. */
  timeoutMs?: number;
  /**
   * Answer as soon as the headers arrive, the body streaming and unbounded in size (a media
   * file): `timeoutMs` then bounds the wait for the headers only. The caller must read or cancel
   * the body.
   */
  stream?: boolean;
  /**
   * With `stream`: the body fails with a timeout after this long without a byte (default 60 s;
   * a reader that stops reading, e.g. a paused video, also stops the bytes).
   */
  idleTimeoutMs?: number;
};

/** One address a host name resolves to. */
export type ResolvedAddress = { address: string; family: 4 | 6 };

export type OutboundOptions = {
  /** OUTBOUND_ALLOW_PRIVATE: allow 10/8, 172.16/12, 192.168/16, 100.64/10 and fc00::/7 (a LAN content manager). */
  allowPrivate: boolean;
  /**
   * OUTBOUND_ALLOW_LOOPBACK: `host:port` pairs (as in a URL, e.g. `127.0.0.1:1337`) whose
   * loopback addresses may be fetched: a content manager on the same machine, or a stand-in of
   * one in tests. Every other loopback address stays refused.
   */
  allowLoopbackHosts?: readonly string[];
  /** DNS; default the system resolver (dns.lookup, all addresses). */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  /** Default 10 s. */
  timeoutMs?: number;
  /** Redirects followed before giving up; default 3. */
  maxRedirects?: number;
  /** Largest answer body read, in bytes; default 2 MiB. */
  maxBodyBytes?: number;
};

/** A request that got no usable answer: the caller words it for its service. */
export class OutboundError extends Error {
  constructor(
    readonly reason: 'timeout' | 'unreachable' | 'redirects' | 'too-large',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** What an address is, as far as fetching it goes. */
export type AddressClass = 'public' | 'private' | 'loopback' | 'link-local' | 'metadata' | 'unspecified' | 'reserved';

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_REDIRECTS = 3;
const DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const NULL_BODY_STATUSES = new Set([204, 205, 304]);
/** Headers that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
/** Cloud metadata services by name; their addresses are refused too, this saves the lookup. */
const METADATA_HOSTNAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.com',
  'instance-data',
  'instance-data.ec2.internal',
]);

function blockList(ipv4: string[], ipv6: string[]): net.BlockList {
  const list = new net.BlockList();
  for (const cidr of ipv4) list.addSubnet(cidr.split('/')[0]!, Number(cidr.split('/')[1]), 'ipv4');
  for (const cidr of ipv6) list.addSubnet(cidr.split('/')[0]!, Number(cidr.split('/')[1]), 'ipv6');
  return list;
}

/** Checked in this order; the first list that holds the address names its class. */
const CLASSES: [AddressClass, net.BlockList][] = [
  // AWS, GCP, Azure, Oracle, DigitalOcean (169.254.169.254), AWS IPv6, Alibaba (inside 100.64/10).
  ['metadata', blockList(['169.254.169.254/32', '169.254.170.2/32', '100.100.100.200/32'], ['fd00:ec2::254/128'])],
  ['unspecified', blockList(['0.0.0.0/8'], ['::/128'])],
  ['loopback', blockList(['127.0.0.0/8'], ['::1/128'])],
  ['link-local', blockList(['169.254.0.0/16'], ['fe80::/10'])],
  [
    'reserved',
    blockList(
      // IETF assignments, documentation, benchmarking, multicast, reserved and broadcast.
      ['192.0.0.0/24', '192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '198.18.0.0/15', '224.0.0.0/4', '240.0.0.0/4'],
      // Discard, documentation, deprecated site-local, local-use NAT64, multicast.
      ['100::/64', '2001:db8::/32', 'fec0::/10', '64:ff9b:1::/48', 'ff00::/8'],
    ),
  ],
  ['private', blockList(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'], ['fc00::/7'])],
];

/** The IPv4 address an IPv6 one carries (mapped, compatible, NAT64, 6to4), if any. */
function embeddedIpv4(groups: number[]): string | null {
  const quad = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && (groups[5] === 0xffff || groups[5] === 0)) return quad(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return quad(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return quad(groups[1]!, groups[2]!);
  return null;
}

/** Classifies an IP address; IPv6 forms that carry an IPv4 address are classified by it. */
export function classifyAddress(address: string): AddressClass {
  const version = net.isIP(address.split('%')[0]!);
  if (version === 0) return 'reserved';
  if (version === 6) {
    const groups = ipv6Groups(address);
    const isSpecial = groups.slice(0, 7).every((g) => g === 0) && groups[7]! <= 1;
    const ipv4 = isSpecial ? null : embeddedIpv4(groups);
    if (ipv4) return classifyAddress(ipv4);
  }
  const type = version === 4 ? 'ipv4' : 'ipv6';
  const plain = address.split('%')[0]!;
  return CLASSES.find(([, list]) => list.check(plain, type))?.[0] ?? 'public';
}

async function systemResolve(hostname: string): Promise<ResolvedAddress[]> {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/** Rejects when the signal aborts; never settles otherwise. */
function whenAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** The refusal: 400 for the address the caller gave, 502 when the remote side redirected there. */
function refusal(url: URL, isRedirect: boolean, why: string): AppError {
  const message = isRedirect
    ? `The external service redirected to ${url.host}, which is not allowed: ${why}`
    : `The address ${url.host} is not allowed: ${why}`;
  return new AppError(isRedirect ? 'ExternalServiceError' : 'ValidationError', message);
}

function parseTarget(raw: string | URL, isRedirect: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError(isRedirect ? 'ExternalServiceError' : 'ValidationError', `The address "${String(raw)}" is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw refusal(url, isRedirect, 'only http or https addresses are fetched.');
  }
  return url;
}

/** The client's settings with their defaults applied. */
type OutboundPolicy = {
  allowPrivate: boolean;
  /** Loopback `host:port` pairs tests may fetch (lower case). */
  loopbackHosts: ReadonlySet<string>;
  resolve: (hostname: string) => Promise<ResolvedAddress[]>;
  timeoutMs: number;
  maxRedirects: number;
  maxBodyBytes: number;
};

/** One request as it goes from hop to hop (a redirect may change its method and drop its body). */
type Hop = { url: URL; method: string; headers: Record<string, string>; body: string | undefined };

export function createOutboundFetch(options: OutboundOptions): OutboundFetch {
  const policy: OutboundPolicy = {
    allowPrivate: options.allowPrivate,
    loopbackHosts: new Set((options.allowLoopbackHosts ?? []).map((h) => h.toLowerCase())),
    resolve: options.resolve ?? systemResolve,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRedirects: options.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
  };
  return (input, request = {}) => fetchChecked(policy, input, request);
}

/** Why the address may not be fetched, or null when it may. */
function refusedBecause(policy: OutboundPolicy, url: URL, address: string): string | null {
  const kind = classifyAddress(address);
  if (kind === 'public') return null;
  if (kind === 'private') {
    return policy.allowPrivate
      ? null
      : 'it is on a private network. To let Plinth reach services on the local network (a LAN content manager), set OUTBOUND_ALLOW_PRIVATE=1 on the server.';
  }
  if (kind === 'loopback' && policy.loopbackHosts.has(url.host.toLowerCase())) return null;
  return `Plinth does not fetch ${kind} addresses (loopback, link-local, cloud metadata, reserved).`;
}

/** The addresses to connect to for `url`, every one of them allowed (a redirect's refusal is a 502, the caller's a 400). */
async function checkedAddresses(
  policy: OutboundPolicy,
  { url, isRedirect }: { url: URL; isRedirect: boolean },
  signal: AbortSignal,
): Promise<ResolvedAddress[]> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const literal = net.isIP(hostname);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  } else {
    if (METADATA_HOSTNAMES.has(hostname.toLowerCase().replace(/\.$/, ''))) {
      throw refusal(url, isRedirect, 'Plinth does not fetch cloud metadata services.');
    }
    try {
      addresses = await Promise.race([policy.resolve(hostname), whenAborted(signal)]);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new OutboundError('unreachable', `The name ${hostname} could not be resolved.`, { cause: error });
    }
    if (addresses.length === 0) throw new OutboundError('unreachable', `The name ${hostname} has no address.`);
  }
  for (const { address } of addresses) {
    const why = refusedBecause(policy, url, address);
    if (why) throw refusal(url, isRedirect, why);
  }
  return addresses;
}

/** Sends the request hop by hop, checking every address it connects to, and answers the last hop's answer. */
async function fetchChecked(policy: OutboundPolicy, input: string, request: OutboundRequest): Promise<Response> {
  const timeoutMs = request.timeoutMs ?? policy.timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
  const { signal } = controller;
  const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  let hop: Hop = { url: parseTarget(input, false), method: (request.method ?? 'GET').toUpperCase(), headers, body: request.body };
  try {
    for (let count = 0; ; count += 1) {
      const addresses = await checkedAddresses(policy, { url: hop.url, isRedirect: count > 0 }, signal);
      const answer = await send(hop, addresses, signal);
      const location = answer.headers.location;
      if (!REDIRECT_STATUSES.has(answer.statusCode ?? 0) || !location) {
        if (!request.stream) return await toResponse(answer, policy.maxBodyBytes);
        clearTimeout(timer);
        return toStreamingResponse(answer, { host: hop.url.host, timeoutMs: request.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS });
      }
      answer.resume();
      if (count >= policy.maxRedirects) {
        throw new OutboundError('redirects', `${hop.url.host} redirected more than ${policy.maxRedirects} times.`);
      }
      hop = redirected(hop, { status: answer.statusCode!, location });
    }
  } catch (error) {
    if (error instanceof AppError || error instanceof OutboundError) throw error;
    if (signal.aborted) {
      throw new OutboundError('timeout', `${hop.url.host} did not answer within ${timeoutMs / 1000} s.`, { cause: error });
    }
    throw new OutboundError('unreachable', `${hop.url.host} could not be reached.`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The request a redirect asks for: 303 (and 301/302 after a POST) turn into a GET without body;
 * another origin gets no credentials, and never a body.
 */
function redirected(hop: Hop, answer: { status: number; location: string }): Hop {
  const next: Hop = { ...hop, url: parseTarget(new URL(answer.location, hop.url), true), headers: { ...hop.headers } };
  const { status } = answer;
  if (status === 303 || ((status === 301 || status === 302) && hop.method === 'POST')) {
    if (hop.method !== 'HEAD') next.method = 'GET';
    next.body = undefined;
    delete next.headers['content-type'];
  }
  if (next.url.origin !== hop.url.origin) {
    if (next.body !== undefined) throw refusal(next.url, true, 'the redirect would resend the request body to another address.');
    for (const name of CREDENTIAL_HEADERS) delete next.headers[name];
  }
  return next;
}

/** One HTTP exchange with the checked addresses (Node connects to them instead of looking the name up again). */
function send(hop: Hop, addresses: ResolvedAddress[], signal: AbortSignal): Promise<http.IncomingMessage> {
  // Node calls this instead of DNS (and skips it for IP literals, which are checked already).
  const lookup = ((_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  }) as LookupFunction;
  const headers = { ...hop.headers };
  if (hop.body !== undefined) headers['content-length'] = String(Buffer.byteLength(hop.body));
  const client = hop.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(hop.url, { method: hop.method, headers, agent: false, lookup, signal }, resolve);
    outgoing.on('error', reject);
    outgoing.end(hop.body);
  });
}

function responseHeaders(answer: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const item of [value ?? []].flat()) headers.append(name, item);
  }
  return headers;
}

/**
 * The answer as a fetch Response whose body streams from the socket (backpressure kept;
 * cancelling the body closes the connection). `timeoutMs` without a byte fails the body.
 */
function toStreamingResponse(answer: http.IncomingMessage, idle: { host: string; timeoutMs: number }): Response {
  answer.setTimeout(idle.timeoutMs, () => {
    answer.destroy(new OutboundError('timeout', `${idle.host} stopped sending for ${idle.timeoutMs / 1000} s.`));
  });
  const status = answer.statusCode ?? 502;
  if (NULL_BODY_STATUSES.has(status)) answer.resume();
  const body = NULL_BODY_STATUSES.has(status) ? null : (Readable.toWeb(answer) as ReadableStream<Uint8Array>);
  return new Response(body, { status, headers: responseHeaders(answer) });
}

/** The answer as a fetch Response, its body read up to `limit` bytes. */
async function toResponse(answer: http.IncomingMessage, limit: number): Promise<Response> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      answer.destroy();
      throw new OutboundError('too-large', `The answer is larger than ${limit} bytes.`);
    }
    chunks.push(chunk);
  }
  const status = answer.statusCode ?? 502;
  return new Response(NULL_BODY_STATUSES.has(status) ? null : Buffer.concat(chunks), { status, headers: responseHeaders(answer) });
}
