import type { MiddlewareObj, Request } from '@middy/core';
import { budgetOf, budgetHeaders, type BudgetState } from '../domain/limits/request-budget';
import { admitRequest } from '../domain/limits/workspace-rate';
import { AppError } from '../errors';
import type { AppContext, HttpEvent, HttpResult } from './types';

type BudgetRequest = Request<HttpEvent, HttpResult, Error, AppContext>;

/**
 * The workspace's request budget (docs/security.md, "Request budgets per workspace"), once the
 * credential names the workspace (API key, user session, consumer session; MCP too): a request over
 * it is answered 429 `RATE_LIMITED` before its body is read, and every counted answer carries
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`. Public routes name no workspace
 * and are left to API Gateway's throttling.
 */
export function requestBudget(): MiddlewareObj<HttpEvent, HttpResult, Error, AppContext> {
  const states = new WeakMap<BudgetRequest, BudgetState>();
  return {
    before: async (request) => {
      const workspaceId = request.context.principal?.workspaceId ?? request.context.consumer?.workspaceId;
      if (!workspaceId) return;
      const method = request.event.requestContext?.http?.method ?? 'POST';
      const state = await admitRequest(workspaceId, method);
      if (!state.admitted) {
        const per = budgetOf(method) === 'read' ? 'read requests' : 'write requests';
        throw new AppError(
          'RATE_LIMITED',
          `This workspace's budget of ${state.limit} ${per} per second is used up; retry after Retry-After`,
          undefined,
          budgetHeaders(state),
        );
      }
      states.set(request, state);
    },
    after: async (request) => {
      const state = states.get(request);
      if (state && request.response) request.response.headers = { ...request.response.headers, ...budgetHeaders(state) };
    },
  };
}
