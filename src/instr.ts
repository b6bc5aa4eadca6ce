// TEMPORARY instrumentation (not to be committed).
const acc = new Map<string, number>();
const counts = new Map<string, number>();
export function timed<T>(name: string, f: () => T): T {
  const t = Bun.nanoseconds();
  try { return f(); } finally { acc.set(name, (acc.get(name) ?? 0) + Bun.nanoseconds() - t); }
}
export function count(name: string, n = 1) { counts.set(name, (counts.get(name) ?? 0) + n); }
let last = performance.eventLoopUtilization?.();
let lastCpu = process.cpuUsage();
setInterval(() => {
  const elu = performance.eventLoopUtilization?.(last);
  last = performance.eventLoopUtilization?.();
  const cpu = process.cpuUsage(lastCpu); lastCpu = process.cpuUsage();
  const msgs = counts.get("msgs") ?? 0;
  if (msgs === 0) return;
  const parts = [...acc].map(([k, v]) => `${k}=${(v / 1000 / msgs).toFixed(0)}`).join(" ");
  process.stderr.write(`[instr] msgs=${msgs} per msg µs: ${parts} cpu=${((cpu.user + cpu.system) / msgs).toFixed(0)} elu=${elu?.utilization.toFixed(2)} answers=${counts.get("answers")}\n`);
  acc.clear(); counts.clear();
}, 5000).unref();
