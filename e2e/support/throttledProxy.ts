import { connect, createServer, type Socket } from 'node:net';

export interface ThrottledProxy {
  close: () => Promise<void>;
}

/**
 * A TCP proxy on `port` (loopback) to `targetPort`, passing what the browser sends at most
 * `bytesPerSecond`, so that an upload is still arriving when a journey does something to the
 * server; answers come back at full speed. A connection whose server end goes away (a server
 * killed) is dropped, as the browser would see it; new connections reach whatever listens then.
 */
export async function startThrottledProxy(
  port: number,
  targetPort: number,
  bytesPerSecond: number,
): Promise<ThrottledProxy> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    upstream.pipe(client);
    client.on('data', (data: Buffer) => {
      client.pause();
      upstream.write(data);
      setTimeout(() => client.resume(), (data.length / bytesPerSecond) * 1000);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
