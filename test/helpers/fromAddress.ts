import http from "node:http";
import { encodeParam, type Params } from "./client";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON (an HTML page). */
  json: any;
}

/**
 * A form POST sent from a chosen loopback address (all of 127.0.0.0/8 is this machine), so a
 * test can play several clients and see what is counted per client address.
 */
export function postFrom(localAddress: string, url: string, params: Params = {}): Promise<RawResponse> {
  const body = new URLSearchParams(Object.entries(params).map(([name, value]) => [name, encodeParam(value)])).toString();
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: "POST",
        localAddress,
        headers: { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => {
          let json: any;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json });
        });
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}
