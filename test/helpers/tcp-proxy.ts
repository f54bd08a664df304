/**
 * A TCP proxy in front of a real server, for fault injection: the tests talk to `port`, and can
 * make the server look hung (`pause`: connections stay open, nothing is forwarded either way),
 * gone (`kill`: every connection is cut and new ones are refused), and healthy again (`restore`).
 *
 *   const proxy = await startTcpProxy(5432);
 *   const db = createDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${proxy.port}/test`, dataDir: null });
 *   proxy.pause(); … proxy.restore(); … await proxy.close();
 */
import net from 'node:net';

export type ProxyState = 'forwarding' | 'paused' | 'killed';

export interface TcpProxy {
  /** The port to connect to instead of the target's (fixed for the proxy's whole life). */
  readonly port: number;
  readonly state: ProxyState;
  /** Connections open through the proxy right now. */
  readonly connections: number;
  /** A hung server: connections (new ones too) stay open, but no byte goes through either way. */
  pause(): void;
  /** A server that went away: every connection is cut and new ones are refused (ECONNREFUSED). */
  kill(): Promise<void>;
  /** Forwards again: what a pause held back is delivered; after a kill, connections are accepted again. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket | null;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  let state: ProxyState = 'forwarding';
  const pairs = new Set<Pair>();

  const drop = (pair: Pair) => {
    pairs.delete(pair);
    pair.client.destroy();
    pair.upstream?.destroy();
  };

  /** Connects the pair to the target and starts forwarding (also for a connection accepted while paused). */
  const connectUpstream = (pair: Pair) => {
    const upstream = net.connect(targetPort, targetHost);
    pair.upstream = upstream;
    upstream.on('data', (chunk: Buffer) => pair.client.write(chunk));
    upstream.on('error', () => drop(pair));
    upstream.on('close', () => drop(pair));
    pair.client.on('data', (chunk: Buffer) => upstream.write(chunk));
    pair.client.resume();
  };

  const server = net.createServer({ pauseOnConnect: true }, (client) => {
    const pair: Pair = { client, upstream: null };
    pairs.add(pair);
    // A reset from the client side is the end of that pair, not a failure of the proxy.
    client.on('error', () => drop(pair));
    client.on('close', () => drop(pair));
    if (state === 'forwarding') connectUpstream(pair);
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));

  await listen(0);
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    get state() {
      return state;
    },
    get connections() {
      return pairs.size;
    },
    pause() {
      if (state !== 'forwarding') return;
      state = 'paused';
      // Not reading from either side: bytes wait in the kernel's buffers, as with a stopped server.
      for (const pair of pairs) {
        pair.client.pause();
        pair.upstream?.pause();
      }
    },
    async kill() {
      if (state === 'killed') return;
      state = 'killed';
      for (const pair of [...pairs]) drop(pair);
      await stopListening();
    },
    async restore() {
      if (state === 'killed') await listen(port);
      if (state === 'paused') {
        for (const pair of pairs) {
          if (pair.upstream) {
            pair.client.resume();
            pair.upstream.resume();
          } else {
            connectUpstream(pair);
          }
        }
      }
      state = 'forwarding';
    },
    async close() {
      const wasListening = state !== 'killed';
      state = 'killed';
      for (const pair of [...pairs]) drop(pair);
      if (wasListening) await stopListening();
    },
  };
}
