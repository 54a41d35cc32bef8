import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findJava, requireJava } from '../../../../infra/local/dynamodb-local';
import { acquireLock, checkPortFree, parsePort, StartupError, writeFileAtomic } from '../../../../infra/local/preflight';

const dir = () => mkdtempSync(join(tmpdir(), 'loyalty-preflight-'));

/** A fake `java` that prints what `java -version` of `version` prints (to stderr, as the JDK does). */
function fakeJava(version: string): string {
  const home = dir();
  mkdirSync(join(home, 'bin'));
  const java = join(home, 'bin', 'java');
  writeFileSync(java, `#!/bin/sh\necho 'openjdk version "${version}" 2020-01-01' >&2\n`);
  chmodSync(java, 0o755);
  return home;
}

describe('local runtime: Java', () => {
  it('takes $JAVA_HOME/bin/java before PATH, then PATH', () => {
    const home = fakeJava('21.0.1');
    const other = fakeJava('17.0.2');
    expect(findJava({ JAVA_HOME: home, PATH: join(other, 'bin') })).toBe(join(home, 'bin', 'java'));
    expect(findJava({ PATH: `${dir()}:${join(other, 'bin')}` })).toBe(join(other, 'bin', 'java'));
    expect(findJava({ JAVA_HOME: dir(), PATH: dir() })).toBeUndefined();
  });

  it('no java: a StartupError naming the package to install', () => {
    expect(() => requireJava({ PATH: dir() })).toThrow(StartupError);
    expect(() => requireJava({ PATH: dir() })).toThrow(/Java 17\+.*\n.*openjdk-17-jre-headless/);
  });

  it('Java older than 17 is refused with its version; 1.8-style versions are read as 8', () => {
    expect(() => requireJava({ JAVA_HOME: fakeJava('11.0.22'), PATH: '' })).toThrow(/is Java 11\./);
    expect(() => requireJava({ JAVA_HOME: fakeJava('1.8.0_392'), PATH: '' })).toThrow(/is Java 8\./);
    const ok = fakeJava('17.0.15');
    expect(requireJava({ JAVA_HOME: ok, PATH: '' })).toBe(join(ok, 'bin', 'java'));
  });
});

describe('local runtime: PORT', () => {
  it('accepts 0-65535 and refuses anything else in one line', () => {
    expect(parsePort(undefined)).toBe(3000);
    expect(parsePort('0')).toBe(0);
    expect(parsePort('8080')).toBe(8080);
    for (const bad of ['abc', '-1', '65536', '80.5', ' ']) expect(() => parsePort(bad), bad).toThrow(StartupError);
  });

  it('a port in use is a StartupError telling which PORT to set', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const port = (busy.address() as { port: number }).port;
    try {
      await expect(checkPortFree(port)).rejects.toThrow(new RegExp(`^Port ${port} is in use: .*PORT=${port + 1}`));
      await expect(checkPortFree(port)).rejects.toBeInstanceOf(StartupError);
    } finally {
      busy.close();
    }
    await expect(checkPortFree(0)).resolves.toBeUndefined();
  });
});

describe('local runtime: runtime.lock', () => {
  it('is created with our pid and port, updated, and removed on release', () => {
    const data = dir();
    const lock = acquireLock(data, 3000);
    const file = join(data, 'runtime.lock');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ pid: process.pid, port: 3000 });
    lock.update({ port: 4000, dynamodbPid: 1234 });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ pid: process.pid, port: 4000, dynamodbPid: 1234 });
    lock.release();
    expect(existsSync(file)).toBe(false);
  });

  it('updates replace the file whole (written aside, renamed over it), so a reader never sees it half-written', () => {
    const data = dir();
    const lock = acquireLock(data, 3000);
    const file = join(data, 'runtime.lock');
    const before = statSync(file).ino;
    lock.update({ dynamodbPid: 4321 });
    expect(statSync(file).ino).not.toBe(before);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ pid: process.pid, port: 3000, dynamodbPid: 4321 });
    expect(readdirSync(data)).toEqual(['runtime.lock']);
    writeFileAtomic(join(data, 'runtime.json'), '{"pid":1}');
    expect(readdirSync(data).sort()).toEqual(['runtime.json', 'runtime.lock']);
    lock.release();
  });

  it('a live local runtime holds it: refused, naming its pid and port', async () => {
    const data = dir();
    // Stands in for a running runtime: alive, and bin/local.ts on its command line.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)', 'bin/local.ts'], { stdio: 'ignore' });
    try {
      await new Promise((r) => other.once('spawn', r));
      writeFileSync(join(data, 'runtime.lock'), JSON.stringify({ pid: other.pid, port: 4321 }));
      expect(() => acquireLock(data, 3000)).toThrow(StartupError);
      expect(() => acquireLock(data, 3000)).toThrow(`(pid ${other.pid}, port 4321, http://127.0.0.1:4321)`);
      expect(JSON.parse(readFileSync(join(data, 'runtime.lock'), 'utf8')).pid).toBe(other.pid); // left alone
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('the lock of a dead process is taken over and reported as previous', () => {
    const data = dir();
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    writeFileSync(join(data, 'runtime.lock'), JSON.stringify({ pid: dead, port: 3000, dynamodbPid: 42 }));
    const lock = acquireLock(data, 3001);
    expect(lock.previous).toEqual({ pid: dead, port: 3000, dynamodbPid: 42 });
    expect(JSON.parse(readFileSync(join(data, 'runtime.lock'), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('an unreadable lock is taken over', () => {
    const data = dir();
    writeFileSync(join(data, 'runtime.lock'), 'not json');
    acquireLock(data, 3000).release();
  });

  it('a live process that is not a local runtime (a recycled pid) does not hold the lock', () => {
    const data = dir();
    writeFileSync(join(data, 'runtime.lock'), JSON.stringify({ pid: process.ppid, port: 3000 }));
    // The vitest parent's command line does not run bin/local.ts.
    acquireLock(data, 3000).release();
  });
});
