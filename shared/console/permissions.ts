import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { components } from '../client/schema';
import { ROUTE_PERMISSIONS, SCOPE_NEEDS } from './platform';

export type Permission = components['schemas']['Permission'];

/** A console route as `METHOD path`, as the route table names it. */
export type ConsoleRoute = keyof typeof ROUTE_PERMISSIONS;

/** The signed-in person's permissions (their session says them). */
export const HeldPermissions = createContext<readonly Permission[]>([]);

/** The signed-in person's role: for the few rules that are a role's, not a permission's (an owner's own). */
export const HeldRole = createContext<components['schemas']['User']['role'] | null>(null);

export const useRole = () => useContext(HeldRole);

/** Whether `held` opens `route`: a screen, a form or a button is shown only when it does, so nothing is refused on a click. */
export const opens = (held: readonly Permission[], route: ConsoleRoute): boolean => held.includes(ROUTE_PERMISSIONS[route]);

/** `may('PUT /api/flash/program')`: whether the signed-in person may call that route. */
export function useMay(): (route: ConsoleRoute) => boolean {
  const held = useContext(HeldPermissions);
  return (route) => opens(held, route);
}

/** Whether the signed-in person may put `scope` on a key they make (a privacy scope needs the permission it reaches into). */
export function useMayGrant(): (scope: keyof typeof SCOPE_NEEDS) => boolean {
  const held = useContext(HeldPermissions);
  return (scope) => {
    const needs = SCOPE_NEEDS[scope];
    return needs === undefined || held.includes(needs);
  };
}
