/** A real HTTP webhook receiver on loopback for the notify tests: records every request, answers from a script. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** performance.now() at arrival */
  at: number;
}

export type Reply = (req: Request, n: number) => Response | Promise<Response>;

export interface Receiver {
  url: (path?: string) => string;
  port: number;
  received: ReceivedRequest[];
  /**
   * Resolves with the requests once `n` have arrived (at once if they have): wait on this, not on a sleep. Rejects
   * after `timeoutMs`, a ceiling for a loaded machine.
   */
  arrived: (n: number, timeoutMs?: number) => Promise<ReceivedRequest[]>;
  /** Replaces how the receiver answers; n is the 1-based request count. */
  reply: (fn: Reply) => void;
  stop: () => void;
}

export function startReceiver(
  opts: { hostname?: string; port?: number; tls?: { cert: string; key: string } } = {},
): Receiver {
  const received: ReceivedRequest[] = [];
  const waiters = new Set<{ n: number; resolve: () => void }>();
  let reply: Reply = () => new Response("ok");
  const hostname = opts.hostname ?? "127.0.0.1";
  const server = Bun.serve({
    hostname,
    port: opts.port ?? 0,
    ...(opts.tls ? { tls: opts.tls } : {}),
    async fetch(req) {
      const at = performance.now();
      const body = await req.text();
      const headers: Record<string, string> = {};
      req.headers.forEach((value, name) => (headers[name] = value));
      received.push({ method: req.method, path: new URL(req.url).pathname, headers, body, at });
      for (const w of waiters) if (received.length >= w.n) w.resolve();
      return reply(req, received.length);
    },
  });
  const port = server.port as number;
  const scheme = opts.tls ? "https" : "http";
  return {
    url: (path = "/hook") => `${scheme}://${hostname}:${port}${path}`,
    port,
    received,
    arrived: (n, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`timed out waiting for request ${n}; ${received.length} arrived`));
        }, timeoutMs);
        const waiter = {
          n,
          resolve: () => {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve(received);
          },
        };
        waiters.add(waiter);
        if (received.length >= n) waiter.resolve();
      }),
    reply: (fn) => (reply = fn),
    stop: () => server.stop(true),
  };
}

/** Answers with the given statuses in order (the last one repeats). */
export function statuses(...codes: Array<number | [number, Record<string, string>]>): Reply {
  return (_req, n) => {
    const entry = codes[Math.min(n, codes.length) - 1];
    const [status, headers] = Array.isArray(entry) ? entry : [entry, {}];
    return new Response(status === 204 ? null : `status ${status}`, { status, headers });
  };
}
