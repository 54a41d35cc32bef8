/**
 * The token of a mailed link (`#token=...`): read from the fragment, which no request carries, and
 * taken out of the address bar at once, so it lands in no history entry, log or Referer.
 */
export function takeFragmentToken(): string {
  const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
  if (location.hash) history.replaceState(null, '', location.pathname);
  return token;
}
