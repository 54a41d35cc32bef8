import { createHash } from 'node:crypto';
import type { MiddlewareObj, Request } from '@middy/core';
import { budgetOf, budgetHeaders, type BudgetState } from './limits/request-budget';
import { admitRequest, beforeAuthentication, noteCredential } from './limits/workspace-rate';
import { AppError } from '../platform/errors';
import type { AppContext, HttpEvent, HttpResult } from './types';

type BudgetRequest = Request<HttpEvent, HttpResult, Error, AppContext>;

const methodOf = (event: HttpEvent): string => event.requestContext?.http?.method ?? 'POST';

/** The digest of the request's Authorization header: how the pre-check knows a credential again. */
const credentialDigest = (event: HttpEvent): string | undefined => {
  const header = event.headers?.authorization;
  return header ? createHash('sha256').update(header).digest('base64url') : undefined;
};

function overBudget(state: BudgetState, method: string): AppError {
  const per = budgetOf(method) === 'read' ? 'read requests' : 'write requests';
  return new AppError(
    'RATE_LIMITED',
    `This workspace's budget of ${state.limit} ${per} per second is used up; retry after Retry-After`,
    undefined,
    budgetHeaders(state),
  );
}

/** The pre-check's hold of each request it let through, released when the request asks for its slot (or fails before). */
const holds = new WeakMap<HttpEvent, () => void>();
const release = (event: HttpEvent): void => {
  holds.get(event)?.();
  holds.delete(event);
};

/**
 * Before authentication (after the error mapper): a credential this process authenticated lately
 * whose workspace already used up this window (counting its requests on their way to a slot) is
 * refused at once, with no store call.
 */
export function knownOverBudget(): MiddlewareObj<HttpEvent, HttpResult, Error, AppContext> {
  return {
    before: (request) => {
      const digest = credentialDigest(request.event);
      const check = digest === undefined ? undefined : beforeAuthentication(digest, methodOf(request.event));
      if (check && 'refused' in check) throw overBudget(check.refused, methodOf(request.event));
      if (check) holds.set(request.event, check.release);
    },
    // Failed before asking for a slot (authentication, say); an early answer's hold lapses with its window.
    onError: (request) => release(request.event),
  };
}

/**
 * The workspace's request budget (docs/security.md, "Request budgets per workspace"), once the
 * credential names the workspace (API key, user session, consumer session; MCP too): a request over
 * it is answered 429 `RATE_LIMITED` before its body is read, and every counted answer carries
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`. Public routes name no workspace
 * and are left to API Gateway's throttling.
 */
export function requestBudget(
  /** Whether the area may write the table: a read-only one (the audit trail) counts in this process only, as it stamps no key either. */
  writes = true,
): MiddlewareObj<HttpEvent, HttpResult, Error, AppContext> {
  const states = new WeakMap<BudgetRequest, BudgetState>();
  return {
    before: async (request) => {
      release(request.event);
      const workspaceId = request.context.principal?.workspaceId ?? request.context.consumer?.workspaceId;
      if (!workspaceId) return;
      const digest = credentialDigest(request.event);
      if (digest !== undefined) noteCredential(digest, workspaceId);
      const state = await admitRequest(workspaceId, methodOf(request.event), new Date(), { processOnly: !writes });
      if (!state.admitted) throw overBudget(state, methodOf(request.event));
      states.set(request, state);
    },
    after: async (request) => {
      const state = states.get(request);
      if (state && request.response) request.response.headers = { ...request.response.headers, ...budgetHeaders(state) };
    },
  };
}
