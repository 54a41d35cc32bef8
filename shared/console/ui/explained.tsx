import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

/**
 * A figure's name that explains it: its definition shows while the pointer is over it and while it
 * has keyboard focus (a tooltip the name is described by), and a tap toggles it on a touch screen.
 * Escape hides it without moving focus (WCAG 1.4.13).
 */
export function Explained({ id, children, definition }: { id: string; children: ComponentChildren; definition: string }) {
  const [state, setState] = useState<'auto' | 'open' | 'hidden'>('auto');
  return (
    <span class={`explained${state === 'open' ? ' open' : ''}${state === 'hidden' ? ' hidden' : ''}`}>
      <button
        type="button"
        class="term"
        aria-describedby={`tip-${id}`}
        onClick={() => setState(state === 'open' ? 'hidden' : 'open')}
        onBlur={() => setState('auto')}
        onMouseEnter={() => setState((s) => (s === 'hidden' ? 'auto' : s))}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setState('hidden');
        }}
      >
        {children}
      </button>
      <span role="tooltip" id={`tip-${id}`} class="tip" data-testid={`tip-${id}`}>
        {definition}
      </span>
    </span>
  );
}
