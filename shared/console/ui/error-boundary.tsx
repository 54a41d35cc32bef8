import type { ComponentChildren, ComponentType } from 'preact';
import lazy from 'preact-iso/lazy';
import { useEffect, useErrorBoundary } from 'preact/hooks';

/** A screen whose code did not arrive: the connection dropped, or a deployment replaced the chunk the open page names. */
class ChunkLoadFailed extends Error {}

/**
 * A screen loaded on first use (its own chunk). preact-iso's `lazy` keeps waiting on an import that
 * failed; here a failed import becomes a screen that throws, so the boundary above it says so.
 */
export function lazyScreen<P>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  return lazy(() =>
    load().catch((cause: unknown) => () => {
      throw new ChunkLoadFailed(cause instanceof Error ? cause.message : String(cause));
    }),
  );
}

/**
 * Around the main view: a screen that fails to load or to render is replaced by a message and a
 * Reload button (a new page load fetches the page again, which names the chunks of the version now
 * deployed). Moving to another address (`at`) tries the screens again.
 */
export function ErrorBoundary({ at, children }: { at: string; children: ComponentChildren }) {
  const [error, reset] = useErrorBoundary();
  // Only a new address clears the error: the same screen would fail again.
  useEffect(() => {
    if (error) reset();
  }, [at]);
  if (!error) return <>{children}</>;
  const chunk = error instanceof ChunkLoadFailed;
  return (
    <section role="alert" aria-labelledby="broken-title" class="card">
      <h1 id="broken-title">{chunk ? 'This screen could not be loaded' : 'This screen stopped working'}</h1>
      <p>
        {chunk
          ? 'Its code did not arrive: the connection dropped, or a new version of the console was deployed meanwhile.'
          : 'Something went wrong while showing it.'}{' '}
        Reload the console to try again; what was saved stays.
      </p>
      <p class="meta">
        <code>{error instanceof Error ? error.message : String(error)}</code>
      </p>
      <button type="button" onClick={() => location.reload()}>
        Reload the console
      </button>
    </section>
  );
}
