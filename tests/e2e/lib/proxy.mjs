// A TCP proxy between the browser and the server whose "network" a test can cut and
// restore: cutting drops every open connection and refuses new ones.
import net from 'node:net';

/**
 * Joins two sockets both ways, kept in `sockets` (so a test can cut them) until either
 * ends, which ends the other.
 * @param {net.Socket} client @param {net.Socket} upstream @param {Set<net.Socket>} sockets
 */
export function splice(client, upstream, sockets) {
  sockets.add(client);
  sockets.add(upstream);
  const cleanup = () => {
    client.destroy();
    upstream.destroy();
    sockets.delete(client);
    sockets.delete(upstream);
  };
  for (const s of [client, upstream]) {
    s.on('error', cleanup);
    s.on('close', cleanup);
  }
  client.pipe(upstream);
  upstream.pipe(client);
}

/** @param {number} targetPort */
export async function startProxy(targetPort) {
  /** @type {Set<net.Socket>} */
  const sockets = new Set();
  let down = false;
  const server = net.createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    splice(client, net.connect(targetPort, '127.0.0.1'), sockets);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {net.AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      down = true;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    restore() {
      down = false;
    },
    close() {
      this.cut();
      return new Promise((resolve) => server.close(() => resolve(undefined)));
    },
  };
}
