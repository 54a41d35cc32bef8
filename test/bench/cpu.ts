import { readFileSync } from 'node:fs';
import type { RuntimeInfo } from '../support/platform';

/**
 * CPU time of the processes a benchmark runs on: the local runtime (HTTP adapter, middy chain,
 * SDK calls, background pipelines), the DynamoDB Local JVM and the benchmark's own client process.
 * On a machine with fewer cores than busy processes the throughput of a CPU-bound path is about
 * cores / CPU per request, so comparing CPU per request of two paths gives the ratio the machine
 * allows whatever the code does, where the wall clock alone cannot tell the two apart.
 */

/** CPU milliseconds a process has used so far (utime + stime from /proc; Linux only). */
function procCpuMs(pid: number): number | undefined {
  try {
    // Fields after the command (which may hold spaces) start at ") ": state is field 3, utime 14, stime 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

export interface CpuPerRequest {
  runtime?: number;
  dynamodb?: number;
  client: number;
  total: number;
}

/** Runs `work` (which makes `requests` requests) and reports CPU ms per request of each process. */
export async function withCpu<T>(runtime: RuntimeInfo, requests: number, work: () => Promise<T>): Promise<{ result: T; cpuMsPerRequest: CpuPerRequest }> {
  const before = { runtime: procCpuMs(runtime.pid), dynamodb: procCpuMs(runtime.dynamodbPid), client: process.cpuUsage() };
  const result = await work();
  const client = process.cpuUsage(before.client);
  const delta = (now: number | undefined, then: number | undefined) => (now === undefined || then === undefined ? undefined : (now - then) / requests);
  const round = (n: number | undefined) => (n === undefined ? undefined : Math.round(n * 100) / 100);
  const parts = {
    runtime: delta(procCpuMs(runtime.pid), before.runtime),
    dynamodb: delta(procCpuMs(runtime.dynamodbPid), before.dynamodb),
    client: (client.user + client.system) / 1000 / requests,
  };
  const total = (parts.runtime ?? 0) + (parts.dynamodb ?? 0) + parts.client;
  return { result, cpuMsPerRequest: { runtime: round(parts.runtime), dynamodb: round(parts.dynamodb), client: round(parts.client)!, total: round(total)! } };
}

/** The throughput ratio a CPU-bound machine allows the first path against the second. */
export const cpuCeiling = (path: CpuPerRequest, baseline: CpuPerRequest) => Math.round((baseline.total / path.total) * 100) / 100;

/** CPU per request over several measured runs (each weighed by its requests). */
export function cpuOver(runs: readonly { requests: number; cpu: CpuPerRequest }[]): CpuPerRequest {
  const total = runs.reduce((s, r) => s + r.requests, 0);
  const mean = (f: (c: CpuPerRequest) => number | undefined) => {
    if (runs.some((r) => f(r.cpu) === undefined)) return undefined;
    return Math.round((runs.reduce((s, r) => s + f(r.cpu)! * r.requests, 0) / total) * 100) / 100;
  };
  return { runtime: mean((c) => c.runtime), dynamodb: mean((c) => c.dynamodb), client: mean((c) => c.client)!, total: mean((c) => c.total)! };
}
