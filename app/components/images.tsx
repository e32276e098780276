import { createContext, useContext } from "react";
import { RENDITION_WIDTHS } from "../../server/rules/images.ts";
import { useRootData } from "../lib/root-data.ts";
import { ownImageUrl } from "../lib/uploads.ts";

/**
 * Inside it (value true), images load through the web app's `/uploads/{id}` with the visitor's session: the images of
 * a removed thing shown to someone who may see it. The API answers 404 to a request without a token for them, and the
 * browser cannot send the token to the API or its CDN (docs/decisions/025-withdrawable-images.md).
 */
export const ImagesThroughSession = createContext(false);

/**
 * The URL of an image's bytes (on the API origin, or the CDN of IMAGE_PUBLIC_URL, or `/uploads/` inside
 * ImagesThroughSession), optionally a narrower rendition.
 */
export function useImageUrl() {
  const { imagePublicUrl } = useRootData();
  const throughSession = useContext(ImagesThroughSession);
  if (throughSession) return ownImageUrl;
  return (id: number, width?: number) => `${imagePublicUrl}/images/${id}${width ? `?w=${width}` : ""}`;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** A stable two-colour gradient for things without a picture, chosen from the name. */
export function gradientFor(name: string): string {
  const h = hash(name);
  const a = h % 360;
  const b = (a + 40 + ((h >> 9) % 80)) % 360;
  return `linear-gradient(135deg, hsl(${a} 70% 42%), hsl(${b} 75% 30%))`;
}

export const initialOf = (name: string) => (Array.from(name.trim())[0] ?? "?").toUpperCase();

interface PictureProps {
  /** Whose picture: gives the alt text and the fallback's colours and initial. */
  name: string;
  imageId: number | null | undefined;
  className?: string;
  /** CSS pixel width it is shown at, for the rendition and srcset. */
  width: number;
  height?: number;
  alt?: string;
  /** In the first screen (an LCP candidate): loaded at once and before other images (fetchpriority high). */
  eager?: boolean;
  /** A `sizes` for a picture whose shown width follows the viewport: the srcset then offers every rendition. */
  sizes?: string;
}

function Picture({ name, imageId, className, width, height, alt, eager, sizes }: PictureProps) {
  const url = useImageUrl();
  if (!imageId) return null;
  const srcSet = sizes
    ? RENDITION_WIDTHS.filter((w) => w >= 480)
        .map((w) => `${url(imageId, w)} ${w}w`)
        .join(", ")
    : `${url(imageId, width)} 1x, ${url(imageId, width * 2)} 2x`;
  // React 18 does not know fetchPriority; the lower-case attribute passes through.
  const hint = eager ? ({ fetchpriority: "high" } as Record<string, string>) : {};
  return (
    <img
      className={className}
      src={url(imageId, width)}
      srcSet={srcSet}
      sizes={sizes}
      width={width}
      height={height}
      alt={alt ?? name}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      {...hint}
    />
  );
}

/** A wide banner, or a gradient when there is none. Decorative: the name is always written beside it. */
export function Banner({
  name,
  imageId,
  className = "",
  width = 1200,
  eager,
  sizes,
}: {
  name: string;
  imageId: number | null | undefined;
  className?: string;
  width?: number;
  eager?: boolean;
  sizes?: string;
}) {
  if (imageId)
    return <Picture name={name} imageId={imageId} className={`banner ${className}`} width={width} alt="" eager={eager} sizes={sizes} />;
  return <div className={`banner banner--fallback ${className}`} style={{ backgroundImage: gradientFor(name) }} aria-hidden="true" />;
}

interface BadgeProps {
  name: string;
  imageId: number | null | undefined;
  size?: number;
  className?: string;
}

/** A square logo (hub, series), or the name's initial on a gradient. */
export function Logo({ size = 64, ...props }: BadgeProps) {
  return <Badge shape="logo" alt={`${props.name} logo`} size={size} {...props} />;
}

/** A round avatar, or the first letter of the username. */
export function Avatar({ size = 40, ...props }: BadgeProps) {
  return <Badge shape="avatar" alt={`${props.name}'s avatar`} size={size} {...props} />;
}

/** The image of a logo or an avatar (the shape is the class's), else the name's initial on its gradient. */
function Badge({ shape, alt, name, imageId, size, className = "" }: BadgeProps & { shape: "logo" | "avatar"; alt: string; size: number }) {
  if (imageId) return <Picture name={name} imageId={imageId} className={`${shape} ${className}`} width={size} height={size} alt={alt} />;
  return (
    <span
      className={`${shape} ${shape}--fallback ${className}`}
      style={{ backgroundImage: gradientFor(name), width: size, height: size, fontSize: size * 0.45 }}
      aria-hidden="true"
    >
      {initialOf(name)}
    </span>
  );
}
