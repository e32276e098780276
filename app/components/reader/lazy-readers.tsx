import { lazy, memo, Suspense } from "react";
import type { PageReader as PageReaderComponent } from "./page-reader.tsx";
import type { StripReader as StripReaderComponent } from "./strip-reader.tsx";

// The readers' code (rendering, keys, taps, swipes, page tracking) loads after the page's own, as the
// comments do (lazy-comment-section.tsx): the chapter page's JavaScript stays under the 100 KB budget.
// The server renders the pages in full; until the code arrives React keeps that HTML as it is, and its
// page links work as they do without JavaScript.
const pageReaderCode = () => import("./page-reader.tsx");
const stripReaderCode = () => import("./strip-reader.tsx");
// In the browser both readers' code is asked for as soon as this module loads, with the chapter route's: on a client
// navigation into a chapter it arrives beside the chapter's data, not after it (the reader would be empty until then).
const early = typeof document === "undefined" ? null : { page: pageReaderCode(), strip: stripReaderCode() };
const PageReaderCode = lazy(() => (early?.page ?? pageReaderCode()).then((m) => ({ default: m.PageReader })));
const StripReaderCode = lazy(() => (early?.strip ?? stripReaderCode()).then((m) => ({ default: m.StripReader })));

type PageProps = Parameters<typeof PageReaderComponent>[0];
type StripProps = Parameters<typeof StripReaderComponent>[0];

// Memo (comparing the settings by value), because a boundary still waiting for its code that
// re-renders would drop the server's HTML and show the empty fallback until the code arrives.
function sameProps<P extends object>(a: P, b: P): boolean {
  return (Object.keys({ ...a, ...b }) as (keyof P)[]).every((k) => {
    const [x, y] = [a[k], b[k]];
    if (k !== "settings" || !x || !y) return Object.is(x, y);
    return (Object.keys(x) as (keyof typeof x)[]).every((s) => x[s] === y[s]);
  });
}

export const LazyPageReader = memo(function LazyPageReader(props: PageProps) {
  return (
    <Suspense fallback={null}>
      <PageReaderCode {...props} />
    </Suspense>
  );
}, sameProps);

export const LazyStripReader = memo(function LazyStripReader(props: StripProps) {
  return (
    <Suspense fallback={null}>
      <StripReaderCode {...props} />
    </Suspense>
  );
}, sameProps);
