import * as repo from './repository';
import type { AttemptToRecord } from './repository';
import type { EndpointRecord } from './entities';

/** Where one delivery attempt reads its endpoint and writes its log entry and state. */
export interface AttemptStore {
  endpoint(workspaceId: string, endpointId: string): Promise<EndpointRecord | undefined>;
  record(attempt: AttemptToRecord): Promise<void>;
}

/** One attempt on its own: one read, one transaction. */
export const singleAttemptStore: AttemptStore = {
  endpoint: repo.getEndpoint,
  record: (a) => repo.recordAttempt(a.workspaceId, a.endpointId, a.payload, a.entry),
};

/** One queue record's share of its batch; `release` once the record is done, recorded or not. */
export interface BatchSlot extends AttemptStore {
  release(): void;
}

/**
 * The attempts of one queue batch share their store work: their endpoints are read together, each
 * once (consistently, as a single attempt reads it), and the attempts are written together, in one transaction where
 * they fit, once every record of the batch has either reached its write or finished without one.
 * On a fast receiver this makes a batch of 10 one write instead of 10; a slow one holds the write
 * back no longer than the batch itself runs. No record waits for another before its write, so the
 * last arrival always releases the write. A failed write fails every attempt it held: those
 * messages return after their visibility time-out and are sent again (at least once).
 */
export function deliveryBatch(size: number): { slot(): BatchSlot } {
  const endpoints = new Map<string, Promise<EndpointRecord | undefined>>();
  // Endpoints asked for in the same turn of the event loop (the records of a batch start together)
  // are read by one BatchGetItem.
  let asked: { workspaceId: string; endpointId: string; resolve: (e: EndpointRecord | undefined) => void; reject: (err: unknown) => void }[] = [];
  const readAsked = () => {
    const wanted = asked;
    asked = [];
    repo.getEndpoints(wanted).then(
      (found) => {
        for (const w of wanted) w.resolve(found.find((e) => e.workspaceId === w.workspaceId && e.id === w.endpointId));
      },
      (err) => {
        for (const w of wanted) w.reject(err);
      },
    );
  };
  const waiting: { attempt: AttemptToRecord; resolve: () => void; reject: (err: unknown) => void }[] = [];
  let outstanding = size;

  const arrive = () => {
    outstanding -= 1;
    if (outstanding > 0 || waiting.length === 0) return;
    const held = waiting.splice(0);
    const outcomes = repo.recordAttempts(held.map((w) => w.attempt));
    for (const [i, w] of held.entries()) void outcomes[i]!.then(w.resolve, w.reject);
  };

  return {
    slot(): BatchSlot {
      let arrived = false;
      const once = () => {
        if (arrived) return;
        arrived = true;
        arrive();
      };
      return {
        endpoint(workspaceId, endpointId) {
          const key = `${workspaceId}/${endpointId}`;
          let read = endpoints.get(key);
          if (!read) {
            read = new Promise((resolve, reject) => {
              if (asked.length === 0) setImmediate(readAsked);
              asked.push({ workspaceId, endpointId, resolve, reject });
            });
            endpoints.set(key, read);
          }
          return read;
        },
        record(attempt) {
          if (arrived) return singleAttemptStore.record(attempt);
          const written = new Promise<void>((resolve, reject) => waiting.push({ attempt, resolve, reject }));
          once();
          return written;
        },
        release: once,
      };
    },
  };
}
