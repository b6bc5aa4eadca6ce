import { isIP } from "node:net";
import { checkDestination, type Resolver } from "./outboundPolicy";
import { withoutTrailingDot } from "./localAddresses";

/**
 * The one way the server makes a request on a user's behalf: the URL is checked and its name
 * resolved once (outboundPolicy.ts), and the connection goes to the checked address, with the
 * URL's host in the Host header and, for https, in SNI and the certificate check (Bun's fetch
 * verifies the certificate against `serverName`, not against the address it connected to).
 * Redirects are not followed, the whole exchange (lookup included) has a deadline, and no more
 * of the answer than the caller accepts is read.
 */

export interface OutboundRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  /** For the lookup, the connection and the whole answer. */
  timeoutMs: number;
  /** A longer answer is not read: AnswerTooLarge. */
  maxAnswerBytes: number;
  /** The organization's URL, which is never called. */
  ownUrl: string;
  /** The name lookup; the system's resolver by default. */
  resolve?: Resolver;
  /** Certificates (PEM) trusted besides the system's. */
  ca?: string;
}

export interface OutboundAnswer {
  status: number;
  headers: Headers;
  /** The body as UTF-8 text. */
  body: string;
}

/** The answer was longer than the caller reads; it was dropped. */
export class AnswerTooLarge extends Error {}

/**
 * Throws RequestRefused (outboundPolicy.ts) before anything is sent, AnswerTooLarge, an Error
 * named TimeoutError after `timeoutMs`, or fetch's own error when the connection failed.
 */
export async function outboundFetch(raw: string, request: OutboundRequest): Promise<OutboundAnswer> {
  const signal = AbortSignal.timeout(request.timeoutMs);
  const { url, address } = await untilAborted(checkDestination(raw, { ownUrl: request.ownUrl, resolve: request.resolve }), signal);
  const connectTo = new URL(url);
  connectTo.hostname = isIP(address) === 6 ? `[${address}]` : address;
  const named = isIP(url.hostname.replace(/^\[|\]$/g, "")) === 0;
  const headers = named ? { ...request.headers, Host: url.host } : request.headers;
  const tls = url.protocol === "https:" ? { ...(named ? { serverName: withoutTrailingDot(url.hostname) } : {}), ...(request.ca ? { ca: request.ca } : {}) } : undefined;
  const response = await fetch(connectTo, { method: request.method, headers, body: request.body, redirect: "manual", signal, tls });
  return { status: response.status, headers: response.headers, body: await readBounded(response, request.maxAnswerBytes) };
}

/** `work`, or the signal's reason once it aborts (a lookup cannot be cancelled, only left). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/** Reads the body as it streams in, stopping as soon as it passes `max` bytes (decompressed). */
async function readBounded(response: Response, max: number): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? 0);
  if (declared > max) {
    await response.body?.cancel();
    throw new AnswerTooLarge(`the answer is ${declared} bytes; at most ${max} are read`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body?.getReader();
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) break;
    total += next.value.byteLength;
    if (total > max) {
      await reader!.cancel();
      throw new AnswerTooLarge(`the answer is over ${max} bytes; at most ${max} are read`);
    }
    chunks.push(next.value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
