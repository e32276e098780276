import { useFetcher } from "@remix-run/react";
import { READING_MODES, type ReadingMode } from "../../lib/reader.ts";
import { useHydrated } from "../../lib/use-hydrated.ts";

/** The fetcher that saves the reading mode; its pending value is the mode to show meanwhile. */
export const useModeFetcher = () => useFetcher<{ ok: boolean }>({ key: "reading-mode" });

/**
 * Vertical strip or single page: a small form posting the choice to the reader's action, which
 * remembers it in a cookie. Without JavaScript the action answers with a redirect back to the
 * same page (`page` keeps the place); with it the switch is immediate. `onChoose` runs first.
 */
export function ModeSwitch({ mode, page, onChoose }: { mode: ReadingMode; page: number; onChoose?: (mode: ReadingMode) => void }) {
  const fetcher = useModeFetcher();
  const hydrated = useHydrated();
  return (
    <fetcher.Form method="post" className="mode-switch" preventScrollReset>
      <input type="hidden" name="intent" value="mode" />
      <input type="hidden" name="page" value={page} />
      {hydrated ? null : <input type="hidden" name="noscript" value="1" />}
      <span className="mode-switch__label" id="mode-switch-label">
        Reading mode
      </span>
      <span className="segmented" role="group" aria-labelledby="mode-switch-label">
        {READING_MODES.map((m) => (
          <button
            key={m.value}
            type="submit"
            name="mode"
            value={m.value}
            className="segmented__item"
            aria-pressed={mode === m.value}
            onClick={(e) => {
              if (mode === m.value) e.preventDefault();
              else onChoose?.(m.value);
            }}
          >
            {m.label}
          </button>
        ))}
      </span>
    </fetcher.Form>
  );
}
