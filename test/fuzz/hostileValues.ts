/**
 * Values an attacker or a broken client puts in a parameter, each named so a failure says
 * which one did it. `core` ones are sent for every parameter on every run; the rest are
 * spread over the parameters in turn on a short run and all sent on a long one.
 */
export interface HostileValue {
  name: string;
  value: string;
  core?: boolean;
}

const nested = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth);

export function hostileValues(long: boolean): HostileValue[] {
  const huge = long ? 1_000_000 : 200_000;
  return [
    { name: "list nested 20,000 deep", value: nested(20_000, "[", "]"), core: true },
    { name: "object nested 5,000 deep", value: '{"a":'.repeat(5_000) + "1" + "}".repeat(5_000), core: true },
    { name: `${huge.toLocaleString("en")}-character string`, value: "x".repeat(huge), core: true },
    { name: "NUL byte", value: "a\u0000b" },
    { name: "lone surrogate", value: "\ud800" },
    { name: "right-to-left override and BOM", value: "\u202e\ufeffabc" },
    { name: "10,000 emoji", value: "🙂".repeat(10_000) },
    { name: "empty string", value: "" },
    { name: "whitespace", value: "  \t\n " },
    { name: "not JSON", value: "[1," },
    { name: "JSON null", value: "null" },
    { name: "JSON object", value: '{"a":1}' },
    { name: "JSON list of strings", value: '["a","b"]' },
    { name: "JSON list of objects", value: '[{"x":[{"y":{}}]}]' },
    { name: "negative integer", value: "-1" },
    { name: "zero", value: "0" },
    { name: "huge integer", value: "99999999999999999999999999999" },
    { name: "below int64", value: "-9223372036854775809" },
    { name: "float", value: "1.5" },
    { name: "exponent", value: "1e400" },
    { name: "NaN", value: "NaN" },
    { name: "boolean", value: "true" },
    { name: "SQL", value: "1' OR '1'='1" },
    { name: "HTML", value: "<script>alert(1)</script>" },
    { name: "long list of IDs", value: JSON.stringify(Array.from({ length: long ? 100_000 : 20_000 }, (_, i) => i)) },
  ];
}
