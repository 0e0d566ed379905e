import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Outbound HTTP to addresses customers give us (webhook URLs, recordings to fetch). Such an
 * address must not reach into our own network: loopback, private, link-local (cloud metadata at
 * 169.254.169.254), carrier-grade NAT, multicast and reserved ranges are refused, checked on the
 * addresses the name resolves to at connection time, and the connection goes to the very address
 * that was checked (a DNS answer cannot change between the check and the connect).
 */
const refusedRanges = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  refusedRanges.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  refusedRanges.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::/96) IPv6 address. */
function embeddedIpv4(address: string): string | undefined {
  const match = /^(?:::ffff:|64:ff9b::)(?:0:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (match?.[1] && match[2]) {
    const high = parseInt(match[1], 16);
    const low = parseInt(match[2], 16);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return dotted?.[1];
}

/** True for an address on the public internet; false for loopback, private, link-local, metadata… */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !refusedRanges.check(address, 'ipv4');
  if (family === 6) {
    const inner = embeddedIpv4(address.toLowerCase());
    if (inner !== undefined) return isPublicAddress(inner);
    return !refusedRanges.check(address, 'ipv6');
  }
  return false;
}

/** The address resolved to (or was) a place customers' requests may not go. */
export class AddressRefusedError extends Error {
  readonly code = 'ADDRESS_REFUSED';
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a private, loopback, link-local or metadata address`);
    this.name = 'AddressRefusedError';
  }
}

export interface OutboundRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The whole exchange, connection to the end of the headers. */
  timeoutMs: number;
  /**
   * true: any address (local testing); false: public addresses only; a list: public addresses and
   * exactly these (a media server or a stand-in on the local network, nothing else internal).
   */
  allowPrivateAddresses: AddressPolicy;
  /** Send nothing: the request fails at once with OutboundDisabledError (a server configured offline). */
  disabled?: boolean;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  /** The body, to be consumed (or destroyed) by the caller. */
  body: IncomingMessage;
}

export type AddressPolicy = boolean | readonly string[];

function addressAllowed(address: string, policy: AddressPolicy): boolean {
  if (policy === true || isPublicAddress(address)) return true;
  return policy !== false && policy.includes(address);
}

function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const refused = addresses.find((entry) => !addressAllowed(entry.address, policy));
      const chosen = addresses[0];
      if (refused) {
        callback(new AddressRefusedError(hostname, refused.address), '', 0);
        return;
      }
      if (!chosen) {
        callback(new Error(`${hostname} has no address`), '', 0);
        return;
      }
      if (options.all) callback(null, [chosen]);
      else callback(null, chosen.address, chosen.family);
    });
  };
}

/** The server is configured to send no request to customer-given addresses (OUTBOUND_HTTP_DISABLED). */
export class OutboundDisabledError extends Error {
  readonly code = 'OUTBOUND_DISABLED';
  constructor(url: URL) {
    super(`this server sends no outbound requests (OUTBOUND_HTTP_DISABLED): ${url.host} not contacted`);
    this.name = 'OutboundDisabledError';
  }
}

/** One HTTP(S) request to a customer-given address, refusing internal addresses unless allowed. */
export function outboundRequest(request: OutboundRequest): Promise<OutboundResponse> {
  const { url } = request;
  if (request.disabled) return Promise.reject(new OutboundDisabledError(url));
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.reject(new Error(`${url.protocol} addresses are not supported`));
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !addressAllowed(host, request.allowPrivateAddresses)) {
    return Promise.reject(new AddressRefusedError(host, host));
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<OutboundResponse>((resolve, reject) => {
    const timeout = AbortSignal.timeout(request.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const outgoing = client.request(
      url,
      {
        method: request.method,
        headers: {
          ...(request.body !== undefined
            ? { 'content-length': String(Buffer.byteLength(request.body)) }
            : {}),
          ...request.headers,
        },
        lookup: guardedLookup(request.allowPrivateAddresses),
        signal,
        // Every request stands alone: no pooled socket is reused for another customer's address.
        agent: false,
      },
      (response) => {
        resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body: response });
      },
    );
    outgoing.on('error', (error) => {
      reject(timeout.aborted ? new Error(`no answer within ${request.timeoutMs} ms`) : error);
    });
    outgoing.end(request.body);
  });
}
