/**
 * A value kept on a Request for the rest of its handling, under a symbol only its note knows.
 * Not a WeakMap keyed by requests: with thousands of requests a second, every garbage
 * collection had to walk such maps' entries, and that showed in the send benchmark.
 */
export function requestNote<T>(name: string) {
  const key = Symbol(name);
  type Noted = Request & { [key]?: T };
  return {
    set(request: Request, value: T) {
      (request as Noted)[key] = value;
    },
    get(request: Request): T | undefined {
      return (request as Noted)[key];
    },
  };
}
