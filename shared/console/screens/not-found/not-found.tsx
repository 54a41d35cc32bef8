import { useLocation } from 'preact-iso/router';

/** An address under /console that no screen has: said so, with the way back. */
export function NotFound() {
  const { path } = useLocation();
  return (
    <section aria-labelledby="not-found-title">
      <h1 id="not-found-title">Nothing at this address</h1>
      <p>
        The console has no page at <code>{path}</code>. <a href="/console">Go to the overview</a>.
      </p>
    </section>
  );
}
