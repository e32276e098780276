import { useFetcher } from "@remix-run/react";
import { Link } from "./link.tsx";
import { useHydrated } from "../lib/use-hydrated.ts";

/** What a toggle action answers to a fetcher (the page's loaders then revalidate). */
export interface ToggleResult {
  ok: boolean;
}

export interface ToggleState {
  on: boolean;
  count: number;
}

export interface Toggle {
  /** The state to show: the one being sent while a change is under way, else the server's. */
  shown: ToggleState;
  /** The form (call it as a function, so the button keeps focus across renders). */
  form: (children: React.ReactNode, fields?: Record<string, string | number>) => React.ReactNode;
}

/**
 * A form that flips an on/off state (like, join, follow) through the route's action.
 * With JavaScript it posts through a fetcher and shows the new state at once; if the call fails
 * the revalidated server state rolls it back. Without, it is a plain form post that the action
 * answers with a redirect back to the page. Buttons given the same `key` show one state.
 */
export function useToggle(state: ToggleState, intents: { on: string; off: string }, key?: string): Toggle {
  // A key shares one fetcher between buttons for the same thing (the reader's two like buttons).
  const fetcher = useFetcher<ToggleResult>(key ? { key } : undefined);
  const hydrated = useHydrated();
  let shown = state;
  const pending = fetcher.formData?.get("intent");
  if (pending === intents.on || pending === intents.off) {
    const on = pending === intents.on;
    shown = { on, count: Math.max(0, state.count + (on === state.on ? 0 : on ? 1 : -1)) };
  }
  const form = (children: React.ReactNode, fields: Record<string, string | number> = {}) => (
    <fetcher.Form method="post" className="toggle-form" preventScrollReset>
      <input type="hidden" name="intent" value={shown.on ? intents.off : intents.on} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {hydrated ? null : <input type="hidden" name="noscript" value="1" />}
      {children}
    </fetcher.Form>
  );
  return { shown, form };
}

/** For a guest: the same look, but a link to the login page that comes back here. */
export function LoginToAct({ to, className, children }: { to: string; className: string; children: React.ReactNode }) {
  return (
    <Link to={to} className={className}>
      {children}
    </Link>
  );
}
