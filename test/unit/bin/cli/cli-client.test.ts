import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allPages, Client, dataOf } from '../../../../bin/cli/client';
import { ApiError, CommandError } from '../../../../bin/cli/errors';
import { apiKeysArea } from '../../../../shared/api-keys/contract';
import { membersArea } from '../../../../shared/members/contract';
import { webhooksArea } from '../../../../shared/webhooks/contract';

/** What the fake platform saw of each request. */
interface Seen {
  method: string | undefined;
  url: string | undefined;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  body: string;
}

let server: Server;
let baseUrl: string;
let seen: Seen[];
let answer: (req: IncomingMessage, res: ServerResponse) => void;

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method,
        url: req.url,
        authorization: req.headers.authorization,
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        body,
      });
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen = [];
});

const client = () => new Client({ baseUrl, apiKey: 'fl_live_unit' });

describe("the command-line tool's API client", () => {
  it("sends the declaration's method and path with the API key and answers the data", async () => {
    answer = (_req, res) => json(res, 200, { data: { points: { balance: 7 } } });
    const change = await client().typed(membersArea.endpoints.changeMemberPoints);
    const { data } = dataOf(
      await change.POST({ params: { path: { id: 'mbr 1/x' }, header: { 'Idempotency-Key': 'k-1' } }, body: { type: 'earn', amount: 7, reason: 'unit' } }),
    );
    expect(data.points.balance).toBe(7);
    expect(seen).toEqual([
      {
        method: 'POST',
        url: '/api/v2/members/mbr%201%2Fx/points',
        authorization: 'Bearer fl_live_unit',
        idempotencyKey: 'k-1',
        body: JSON.stringify({ type: 'earn', amount: 7, reason: 'unit' }),
      },
    ]);
  });

  it("an error answer becomes the tool's error with code, message, request id, details and docUrl", async () => {
    const error = {
      code: 'VALIDATION_ERROR',
      message: 'Invalid request',
      requestId: 'req-body',
      details: [{ in: 'body', field: 'amount', message: 'too small' }],
      docUrl: `${baseUrl}/docs#api/description/validation-error`,
    };
    answer = (_req, res) => json(res, 400, { error }, { 'x-request-id': 'req-header' });
    const get = await client().typed(membersArea.endpoints.getMember);
    const e = await get
      .GET({ params: { path: { id: 'mbr_1' } } })
      .then(dataOf)
      .catch((caught: unknown) => caught);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'Invalid request',
      requestId: 'req-body',
      details: error.details,
      docUrl: error.docUrl,
    });
  });

  it('an error answer without the error shape keeps its status, its text and the x-request-id header', async () => {
    answer = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/plain', 'x-request-id': 'req-502' });
      res.end('upstream gone');
    };
    const get = await client().typed(membersArea.endpoints.getMember);
    const e = await get
      .GET({ params: { path: { id: 'mbr_1' } } })
      .then(dataOf)
      .catch((caught: unknown) => caught);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ status: 502, code: 'HTTP_502', message: 'upstream gone', requestId: 'req-502', details: [], docUrl: undefined });
  });

  it('a 204 answer is a success without data', async () => {
    answer = (_req, res) => {
      res.writeHead(204);
      res.end();
    };
    const revoke = await client().typed(apiKeysArea.endpoints.revokeApiKey);
    expect(dataOf(await revoke.DELETE({ params: { path: { id: 'key_1' } } }))).toBeUndefined();
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['DELETE /api/v2/api-keys/key_1']);
  });

  it('a list is read whole, 200 a page, following nextCursor', async () => {
    answer = (req, res) => {
      const cursor = new URL(req.url!, baseUrl).searchParams.get('cursor');
      json(res, 200, cursor ? { data: [{ id: 'key_2' }], nextCursor: null } : { data: [{ id: 'key_1' }], nextCursor: 'c1' });
    };
    const list = await client().typed(apiKeysArea.endpoints.listApiKeys);
    const items = await allPages((query) => list.GET({ params: { query } }));
    expect(items.map((k) => k.id)).toEqual(['key_1', 'key_2']);
    expect(seen.map((s) => s.url)).toEqual(['/api/v2/api-keys?limit=200', '/api/v2/api-keys?limit=200&cursor=c1']);
  });

  it('an unreachable platform is said once, naming --base-url', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const catalog = await new Client({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'fl_live_unit' }).typed(webhooksArea.endpoints.getEventCatalog);
    const e = await catalog.GET().catch((caught: unknown) => caught);
    expect(e).toBeInstanceOf(CommandError);
    expect((e as Error).message).toMatch(new RegExp(`^Could not reach http://127\\.0\\.0\\.1:${port}: ECONNREFUSED\\..*--base-url`));
  });

  it('a call is type-checked against the OpenAPI document (`npm run typecheck` compiles these lines)', () => {
    // Never run: the expected errors below are what the type check asserts.
    const compileOnly = async (c: Client) => {
      const get = await c.typed(membersArea.endpoints.getMember);
      // @ts-expect-error a GET route offers no POST
      void get.POST;
      // @ts-expect-error a path parameter the route does not have
      await get.GET({ params: { path: { memberId: 'mbr_1' } } });
      const change = await c.typed(membersArea.endpoints.changeMemberPoints);
      // @ts-expect-error a field of the wrong type
      await change.POST({ params: { path: { id: 'mbr_1' } }, body: { type: 'earn', amount: '7', reason: 'x' } });
      const drifted = await c.typed({ ...membersArea.endpoints.getMember, path: '/api/v2/memberz/{id}' as const });
      // @ts-expect-error a declaration whose path the document lacks cannot be called
      await drifted.GET({ params: { path: { id: 'mbr_1' } } });
      const wrongMethod = await c.typed({ ...webhooksArea.endpoints.getEventCatalog, method: 'DELETE' as const });
      // @ts-expect-error nor one whose method the document lacks at that path
      await wrongMethod.DELETE();
    };
    expect(compileOnly).toBeTypeOf('function');
  });
});
