import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AddressRefusedError, isPublicAddress, outboundRequest } from './outbound-http.js';

describe('isPublicAddress', () => {
  it('refuses loopback, private, link-local, metadata, carrier-grade NAT, multicast and reserved addresses', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      'fc00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '64:ff9b::a9fe:a9fe',
      'not an address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('allows public addresses', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
    ]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });
});

describe('outboundRequest', () => {
  it('refuses a name that resolves to loopback unless private addresses are allowed', async () => {
    const server = createServer((_request, response) => response.end('reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      for (const host of ['localhost', '127.0.0.1', '[::ffff:127.0.0.1]']) {
        await expect(
          outboundRequest({
            method: 'GET',
            url: new URL(`http://${host}:${port}/`),
            timeoutMs: 5000,
            allowPrivateAddresses: false,
          }),
        ).rejects.toBeInstanceOf(AddressRefusedError);
      }
      const allowed = await outboundRequest({
        method: 'GET',
        url: new URL(`http://localhost:${port}/`),
        timeoutMs: 5000,
        allowPrivateAddresses: true,
      });
      expect(allowed.statusCode).toBe(200);
      allowed.body.resume();
    } finally {
      server.close();
    }
  });

  it('gives up when no answer comes within the timeout', async () => {
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      await expect(
        outboundRequest({
          method: 'POST',
          url: new URL(`http://127.0.0.1:${port}/`),
          body: '{}',
          timeoutMs: 300,
          allowPrivateAddresses: true,
        }),
      ).rejects.toThrow('no answer within 300 ms');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
