// A round-robin TCP load balancer in front of several server nodes, as nginx is in
// deploy/cluster: each new connection goes to the next node that accepts it (a node that
// refuses, such as a killed one, is skipped), with no stickiness. A test may narrow the
// nodes new connections go to (`route`) and drop the open connections (`cut`), to put
// a page on a node of its choosing.
import net from 'node:net';
import { splice } from './proxy.mjs';

/** @param {number[]} ports  the nodes, by port on 127.0.0.1 */
export async function startBalancer(ports) {
  /** @type {Set<net.Socket>} */
  const sockets = new Set();
  let targets = [...ports];
  let next = 0;
  /** Which node each connection went to, in order (by port): what a test checks. */
  const routed = /** @type {number[]} */ ([]);

  /**
   * Connects to the next node that accepts, trying each at most once.
   * @returns {Promise<{upstream: net.Socket, port: number} | null>}
   */
  async function connectNext() {
    const order = targets.map((_, i) => targets[(next + i) % targets.length]);
    next = (next + 1) % Math.max(targets.length, 1);
    for (const port of order) {
      const upstream = await new Promise((resolve) => {
        const s = net.connect(port, '127.0.0.1');
        s.once('connect', () => resolve(s));
        s.once('error', () => resolve(null));
      });
      if (upstream) return { upstream, port };
    }
    return null;
  }

  const server = net.createServer(async (client) => {
    // The client's first bytes wait in its socket (paused) until the node is chosen.
    client.on('error', () => client.destroy());
    sockets.add(client);
    const chosen = await connectNext();
    if (!chosen || client.destroyed) {
      chosen?.upstream.destroy();
      client.destroy();
      sockets.delete(client);
      return;
    }
    routed.push(chosen.port);
    splice(client, chosen.upstream, sockets);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {net.AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    routed,
    /** New connections go to these nodes only (round robin among them). @param {number[]} ports */
    route(ports) {
      targets = [...ports];
      next = 0;
    },
    /** Drops every open connection, as a balancer restart would; new ones are accepted. */
    cut() {
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    close() {
      this.cut();
      return new Promise((resolve) => server.close(() => resolve(undefined)));
    },
  };
}
