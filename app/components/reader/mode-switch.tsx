import { useFetcher } from "@remix-run/react";
import {
  isPageFit,
  isPageLayout,
  isReadingMode,
  PAGE_FITS,
  PAGE_LAYOUTS,
  READING_MODES,
  type ReaderSettings,
  type ReadingMode,
} from "../../lib/reader.ts";
import { useHydrated } from "../../lib/use-hydrated.ts";

/** The fetcher that saves the reader's settings; its pending values are the settings to show meanwhile. */
export const useModeFetcher = () => useFetcher<{ ok: boolean }>({ key: "reading-mode" });

/** The saved settings with a change on its way (a pending fetcher's form) applied, so a choice shows at once. */
export function pendingSettings(saved: ReaderSettings, form: FormData | undefined): ReaderSettings {
  const mode = form?.get("mode");
  const layout = form?.get("layout");
  const fit = form?.get("fit");
  const shift = form?.get("shift");
  return {
    mode: isReadingMode(mode) ? mode : saved.mode,
    layout: isPageLayout(layout) ? layout : saved.layout,
    fit: isPageFit(fit) ? fit : saved.fit,
    shift: shift === "1" ? true : shift === "0" ? false : saved.shift,
  };
}

/**
 * The reader's settings: the mode (vertical strip, pages left to right, pages right to left), and
 * for pages the layout (single page or two-page spreads, and "Shift by one page"), and the fit. One
 * small form posting the choice to the reader's action, which remembers it in a cookie (the mode
 * and the shift for this series). Without JavaScript the action answers with a redirect back to the
 * same page (`page` keeps the place); with it the change is immediate. `onChoose` runs first.
 */
export function ModeSwitch({
  settings,
  seriesId,
  page,
  onChoose,
}: {
  settings: ReaderSettings;
  seriesId: number | null;
  page: number;
  onChoose?: (mode: ReadingMode) => void;
}) {
  const fetcher = useModeFetcher();
  const hydrated = useHydrated();
  const paged = settings.mode !== "strip";
  const group = <T extends string>(id: string, label: string, name: string, options: { value: T; label: string }[], value: T) => (
    <span className={`reader-settings__group reader-settings__group--${name}`}>
      <span className="mode-switch__label" id={id}>
        {label}
      </span>
      <span className="segmented" role="group" aria-labelledby={id}>
        {options.map((o) => (
          <button
            key={o.value}
            type="submit"
            name={name}
            value={o.value}
            className="segmented__item"
            aria-pressed={value === o.value}
            onClick={(e) => {
              if (value === o.value) e.preventDefault();
              else if (name === "mode") onChoose?.(o.value as ReadingMode);
            }}
          >
            {o.label}
          </button>
        ))}
      </span>
    </span>
  );
  return (
    <fetcher.Form method="post" className="mode-switch reader-settings" preventScrollReset>
      <input type="hidden" name="intent" value="mode" />
      <input type="hidden" name="page" value={page} />
      {seriesId !== null ? <input type="hidden" name="seriesId" value={seriesId} /> : null}
      {hydrated ? null : <input type="hidden" name="noscript" value="1" />}
      {group("reader-mode-label", "Reading mode", "mode", READING_MODES, settings.mode)}
      {paged ? group("reader-layout-label", "Layout", "layout", PAGE_LAYOUTS, settings.layout) : null}
      {paged && settings.layout === "spread" ? (
        <button
          type="submit"
          name="shift"
          value={settings.shift ? "0" : "1"}
          className="button button--ghost reader-settings__shift"
          aria-pressed={settings.shift}
        >
          Shift by one page
        </button>
      ) : null}
      {paged ? group("reader-fit-label", "Fit", "fit", PAGE_FITS, settings.fit) : null}
    </fetcher.Form>
  );
}
