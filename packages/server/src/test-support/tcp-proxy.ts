import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Connections accepted so far: a client that replaced its connection opened another. */
  readonly accepted: number;
  /** Holds every byte the target sends until `resume`: a peer that takes requests and stops answering. */
  stall(): void;
  resume(): void;
  /** Drops every connection and refuses new ones: a peer that went away. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  /** Sends new connections to `target`, and leaves open ones where they are: a DNS name moved by a failover. */
  retarget(target: { host: string; port: number }): void;
  close(): Promise<void>;
}

/** A loopback TCP proxy to `target`, for faults of a real server that must never be stopped itself. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const held: (() => void)[] = [];
  let stalled = false;
  let accepted = 0;
  let current = target;
  const relay = (from: Socket, to: Socket, holdable: boolean) =>
    from.on('data', (chunk) => {
      if (stalled && holdable) held.push(() => to.write(chunk));
      else to.write(chunk);
    });
  const server = createServer((client) => {
    accepted++;
    const upstream = connect(current);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    relay(client, upstream, false);
    relay(upstream, client, true);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const stop = async () => {
    for (const socket of sockets) socket.destroy();
    if (server.listening) await new Promise((resolve) => server.close(resolve));
  };
  const port = await listen(0);
  return {
    port,
    get accepted() {
      return accepted;
    },
    stall: () => {
      stalled = true;
    },
    resume: () => {
      stalled = false;
      for (const write of held.splice(0)) write();
    },
    cut: stop,
    restore: async () => {
      await listen(port);
    },
    retarget: (next) => {
      current = next;
    },
    close: stop,
  };
}
