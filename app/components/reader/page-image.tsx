import { useEffect, useState } from "react";
import { useImageUrl } from "../images.tsx";
import { srcSetFor } from "../../lib/renditions.ts";

export interface ReaderPage {
  imageId: number;
  width: number;
  height: number;
}

/** The srcset and sizes of a page, shared by its <img> and the <link rel="preload"> for it. */
export function usePageSources() {
  const url = useImageUrl();
  return (page: ReaderPage) => ({ src: url(page.imageId, Math.min(page.width, 800)), srcSet: srcSetFor(url, page.imageId, page.width) });
}

/**
 * One comic page: its renditions in `srcset` (the browser picks by `sizes` and the screen's
 * density), the API's width and height and its aspect-ratio (so nothing moves as pages load), and lazy loading for all
 * but the first pages.
 */
export function PageImage({
  page,
  number,
  total,
  sizes,
  eager = false,
  priority = false,
  id,
  className = "reader-page",
  style,
}: {
  page: ReaderPage;
  number: number;
  total: number;
  sizes: string;
  eager?: boolean;
  priority?: boolean;
  id?: string;
  className?: string;
  style?: React.CSSProperties;
}) {
  const sources = usePageSources()(page);
  // React 18 does not know fetchPriority; the lower-case attribute passes through.
  const hint = priority ? ({ fetchpriority: "high" } as Record<string, string>) : {};
  return (
    <img
      id={id}
      className={className}
      src={sources.src}
      srcSet={sources.srcSet}
      sizes={sizes}
      width={page.width}
      height={page.height}
      alt={`Page ${number} of ${total}`}
      loading={eager ? "eager" : "lazy"}
      decoding={eager ? "auto" : "async"}
      // The page's shape before it loads (with `height: auto` in the CSS): its space is kept, nothing moves.
      style={{ aspectRatio: `${page.width} / ${page.height}`, ...style }}
      {...hint}
    />
  );
}

const LATER = { fetchpriority: "low" } as Record<string, string>;

/** True once the document's `load` event has passed (false in the server render). */
function useLoaded(): boolean {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (document.readyState === "complete") {
      setLoaded(true);
      return;
    }
    const done = () => setLoaded(true);
    window.addEventListener("load", done, { once: true });
    return () => window.removeEventListener("load", done);
  }, []);
  return loaded;
}

/**
 * Asks the browser for pages before they are shown (the same srcset and sizes, so the same file).
 * Only after the page has loaded: before that they would share the phone's bandwidth with the page
 * in view and delay its first paint (docs/web.md, "First paint"). Without JavaScript nothing is
 * preloaded; the next-page link loads the next page.
 */
export function PreloadPages({ pages, sizes }: { pages: ReaderPage[]; sizes: (page: ReaderPage) => string }) {
  const sources = usePageSources();
  const loaded = useLoaded();
  if (!loaded) return null;
  return (
    <>
      {pages.map((page) => {
        const s = sources(page);
        // Low priority: the page in view (fetchpriority high) comes first.
        return <link key={page.imageId} rel="preload" as="image" href={s.src} imageSrcSet={s.srcSet} imageSizes={sizes(page)} {...LATER} />;
      })}
    </>
  );
}
