/** A minimal API client that speaks to Parley the way Zulip clients do. */

export type Params = Record<string, unknown>;

export interface ApiResponse<T = Record<string, any>> {
  status: number;
  body: T;
  headers: Headers;
}

/** Form encoding as clients send it: lists and objects become JSON strings. */
export function encodeParam(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly email?: string,
    readonly apiKey?: string,
  ) {}

  as(email: string, apiKey: string) {
    return new ApiClient(this.baseUrl, email, apiKey);
  }

  private authHeaders(): Record<string, string> {
    if (!this.email || this.apiKey === undefined) return {};
    return { authorization: `Basic ${Buffer.from(`${this.email}:${this.apiKey}`).toString("base64")}` };
  }

  async request(method: string, path: string, params: Params = {}, options: { multipart?: boolean; headers?: Record<string, string> } = {}): Promise<ApiResponse> {
    const url = new URL(`/api/v1${path}`, this.baseUrl);
    const headers: Record<string, string> = { ...this.authHeaders(), ...options.headers };
    let body: BodyInit | undefined;
    if (method === "GET") {
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, encodeParam(value));
    } else if (options.multipart) {
      const form = new FormData();
      // A File or Blob goes as a file part, as clients upload.
      for (const [name, value] of Object.entries(params)) form.append(name, value instanceof Blob ? value : encodeParam(value));
      body = form;
    } else {
      const form = new URLSearchParams();
      for (const [name, value] of Object.entries(params)) form.set(name, encodeParam(value));
      body = form;
      headers["content-type"] = "application/x-www-form-urlencoded";
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let parsed: any;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`${method} ${path} answered ${response.status} with non-JSON: ${text.slice(0, 300)}`);
    }
    return { status: response.status, body: parsed, headers: response.headers };
  }

  get = (path: string, params?: Params) => this.request("GET", path, params);
  post = (path: string, params?: Params, options?: { multipart?: boolean }) => this.request("POST", path, params, options);
  patch = (path: string, params?: Params) => this.request("PATCH", path, params);
  delete = (path: string, params?: Params) => this.request("DELETE", path, params);
}
