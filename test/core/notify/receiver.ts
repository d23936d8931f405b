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
  /** Replaces how the receiver answers; n is the 1-based request count. */
  reply: (fn: Reply) => void;
  stop: () => void;
}

export function startReceiver(
  opts: { hostname?: string; port?: number; tls?: { cert: string; key: string } } = {},
): Receiver {
  const received: ReceivedRequest[] = [];
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
      return reply(req, received.length);
    },
  });
  const port = server.port as number;
  const scheme = opts.tls ? "https" : "http";
  return {
    url: (path = "/hook") => `${scheme}://${hostname}:${port}${path}`,
    port,
    received,
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
