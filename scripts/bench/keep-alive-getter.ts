import net from "node:net";

/**
 * GET over one keep-alive connection, the body read to its end and dropped: the time a client
 * waits for the whole response. Throws on a status other than 200.
 *
 * A lean HTTP/1.1 client on a raw socket (Nagle off): it writes one pre-built request and reads
 * only what framing needs (the status line, Content-Length or chunked transfer encoding), where
 * node's http client parses every header into objects and emits a stream event per chunk. What
 * the API figures measure is the server; node's client cost about 0.03 ms a request more here,
 * more on responses with many headers, a fifth of a detail's replay (docs/PERFORMANCE.md).
 */
export function keepAliveGetter(base: string, cookie: string) {
  const url = new URL(base);
  const socket = net.connect(Number(url.port), url.hostname);
  socket.setNoDelay(true);
  const connected = new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  let waiting: { path: string; resolve: (bytes: number) => void; reject: (err: Error) => void } | null = null;
  let buffer: Buffer = Buffer.alloc(0);
  const fail = (err: Error) => {
    const w = waiting;
    waiting = null;
    w?.reject(err);
  };
  socket.on("error", fail);
  socket.on("close", () => fail(new Error("the server closed the connection")));

  /** The body's length once the whole response is in `buffer`; -1 while more is to come. */
  const complete = (bodyStart: number, head: string): number => {
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (length) return buffer.length >= bodyStart + Number(length[1]) ? Number(length[1]) : -1;
    if (!/\r\ntransfer-encoding: *chunked/i.test(head)) throw new Error(`no framing in: ${head}`);
    let at = bodyStart;
    let bytes = 0;
    for (;;) {
      const lineEnd = buffer.indexOf("\r\n", at);
      if (lineEnd < 0) return -1;
      const size = parseInt(buffer.toString("latin1", at, lineEnd), 16);
      const next = lineEnd + 2 + size + 2;
      if (buffer.length < next) return -1;
      if (size === 0) return bytes;
      bytes += size;
      at = next;
    }
  };
  socket.on("data", (chunk: Buffer) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    if (!waiting) return;
    const headEnd = buffer.indexOf("\r\n\r\n");
    if (headEnd < 0) return;
    const head = buffer.toString("latin1", 0, headEnd);
    let bytes: number;
    try {
      bytes = complete(headEnd + 4, head);
    } catch (err) {
      return fail(err as Error);
    }
    if (bytes < 0) return;
    const w = waiting;
    waiting = null;
    buffer = Buffer.alloc(0);
    const status = Number(head.slice(9, 12));
    if (status === 200) w.resolve(bytes);
    else w.reject(new Error(`GET ${w.path}: ${status}`));
  });

  const requestFor = new Map<string, Buffer>();
  const get = async (pathAndQuery: string): Promise<number> => {
    await connected;
    let request = requestFor.get(pathAndQuery);
    if (!request) {
      request = Buffer.from(
        `GET ${pathAndQuery} HTTP/1.1\r\nHost: ${url.host}\r\n` +
          (cookie ? `Cookie: ${cookie}\r\n` : "") +
          "\r\n",
        "latin1",
      );
      requestFor.set(pathAndQuery, request);
    }
    return new Promise<number>((resolve, reject) => {
      waiting = { path: pathAndQuery, resolve, reject };
      socket.write(request);
    });
  };
  return { get, close: () => socket.destroy() };
}
