// A loopback HTTP server (127.0.0.1 only) that answers each provider request with the next scripted
// response of a replay fixture, written in random-sized pieces from a seeded PRNG so the SSE parsers
// meet every kind of split (inside a JSON string, inside a multi-byte character, between "\n\n").
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seededRandom } from '../unit/seeded-random';

export interface ScriptedResponse {
  status: number;
  headers?: Record<string, string>;
  /** the raw body bytes to send */
  body: Buffer;
  /** how the response ends: a clean end (default) or a TCP reset after the last byte */
  end?: 'close' | 'reset';
}

export interface RecordedRequest {
  path: string;
  body: unknown;
}

export class ReplayServer {
  readonly requests: RecordedRequest[] = [];
  private script: ScriptedResponse[] = [];
  private random: () => number = seededRandom(1);
  private constructor(private readonly server: Server, readonly origin: string) {}

  static async start(): Promise<ReplayServer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const replay = new ReplayServer(server, `http://127.0.0.1:${port}`);
    server.on('request', (req, res) => void replay.answer(req, res));
    return replay;
  }

  /** Scripts the next requests (the last response repeats) and reseeds the piece sizes. */
  load(script: ScriptedResponse[], seed: number): void {
    this.script = script;
    this.requests.length = 0;
    this.random = seededRandom(seed);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    this.requests.push({ path: req.url ?? '', body: raw ? JSON.parse(raw) : undefined });
    const next = this.script[Math.min(this.requests.length - 1, this.script.length - 1)];
    if (!next) return void res.writeHead(500).end('no scripted response');
    const isStream = next.status === 200;
    res.writeHead(next.status, { 'content-type': isStream ? 'text/event-stream' : 'application/json', ...next.headers });
    res.flushHeaders();
    for (const piece of this.pieces(next.body)) await write(res, piece);
    if (next.end === 'reset') res.socket?.destroy();
    else res.end();
  }

  /** Splits a body into pieces of 1 to 48 bytes. */
  private pieces(body: Buffer): Buffer[] {
    const out: Buffer[] = [];
    for (let at = 0; at < body.length; ) {
      const size = 1 + Math.floor(this.random() * 48);
      out.push(body.subarray(at, at + size));
      at += size;
    }
    return out;
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Writes one piece and yields to the event loop so pieces leave as separate TCP writes. */
function write(res: ServerResponse, piece: Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    res.write(piece, () => setImmediate(resolve));
  });
}
