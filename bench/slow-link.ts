// A TCP proxy that holds every chunk for a while in each direction, in order: the
// latency of a network link between the console and a MongoDB server, on one machine.
import net from 'node:net';

export interface SlowLink {
  port: number;
  close(): Promise<void>;
}

/** Forwards 127.0.0.1:<port> to `target`, each chunk `delayMs` late each way. */
export async function slowLink(target: { host: string; port: number }, delayMs: number): Promise<SlowLink> {
  const sockets = new Set<net.Socket>();
  // Timers of one duration fire in the order they were set: the bytes stay in order.
  const late = (from: net.Socket, to: net.Socket) => from.on('data', (chunk) => void setTimeout(() => to.destroyed || to.write(chunk), delayMs));
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('close', () => sockets.delete(socket));
      // A link torn down ends both sides; the driver reports it on its own side.
      socket.on('error', () => (client.destroy(), upstream.destroy()));
    }
    late(client, upstream);
    late(upstream, client);
    client.on('end', () => setTimeout(() => upstream.end(), delayMs));
    upstream.on('end', () => setTimeout(() => client.end(), delayMs));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
