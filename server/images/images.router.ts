import type { RequestHandler } from "express";
import multer from "multer";
import { z } from "zod";
import { memoryAttemptCounter, type AttemptCounter, type AttemptCounters } from "../http/attempt-counter.ts";
import { acceptsListed } from "../http/accept.ts";
import { sendWithEtag } from "../http/conditional-send.ts";
import { endpointsFor } from "../http/endpoint.ts";
import { badRequest, HttpError } from "../http/errors.ts";
import { ImageMetadata } from "../rules/api-responses.ts";
import { idParam } from "../rules/text.ts";
import type { Services } from "../services.ts";
import { bytesKey } from "./images.service.ts";
import { DEFAULT_UPLOAD_RATE_PER_HOUR, rateMessage } from "./upload-limits.ts";

const endpoint = endpointsFor<Services>();
const ImageId = z.object({ id: idParam("Image id") });

const WidthQuery = z.object({
  w: z
    .string()
    .regex(/^[0-9]{1,5}$/, "w must be a width in pixels between 1 and 4096")
    .transform(Number)
    .refine((n) => n >= 1 && n <= 4096, "w must be a width in pixels between 1 and 4096")
    .optional(),
});

/**
 * How long a cache in front (IMAGE_PUBLIC_URL's CDN, a browser) may keep a public image without asking again: a
 * published image can still be withdrawn (deleted, removed), and this bounds how long it outlives that
 * (docs/decisions/025-withdrawable-images.md). After it, the cache revalidates with the ETag: 304 while still public.
 */
const PUBLIC_IMAGE_MAX_AGE_SECONDS = 300;
const PUBLIC_IMAGE_CACHE = `public, max-age=${PUBLIC_IMAGE_MAX_AGE_SECONDS}, must-revalidate`;

function receiveOneFile(maxBytes: number): RequestHandler[] {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 12 },
    defParamCharset: "utf8",
  }).single("file");
  const requireMultipart: RequestHandler = (req, _res, next) => {
    if (!req.is("multipart/form-data")) return next(new HttpError(415, "Send the image as multipart/form-data in the field 'file'"));
    next();
  };
  const requireFile: RequestHandler = (req, _res, next) => {
    if (!req.file)
      return next(badRequest("Send one image in the multipart field 'file'", [{ field: "file", message: "Choose an image to upload" }]));
    next();
  };
  return [requireMultipart, upload, requireFile];
}

/** Counts the upload before its body is read: a refused upload costs no bandwidth or memory. */
function limitUploadRate(uploads: AttemptCounter, perHour: number): RequestHandler {
  return async (_req, res, next) => {
    const wait = await uploads.take(String((res.locals.user as { id: number }).id));
    if (wait === null) return next();
    res.setHeader("Retry-After", String(wait));
    next(new HttpError(429, rateMessage(perHour, wait)));
  };
}

export interface ImageEndpointConfig {
  uploadMaxBytes: number;
  /** Uploads per user per hour (UPLOAD_RATE_PER_HOUR); 0 turns the limit off. */
  uploadRatePerHour?: number;
}

export function imageEndpoints(
  { uploadMaxBytes, uploadRatePerHour = DEFAULT_UPLOAD_RATE_PER_HOUR }: ImageEndpointConfig,
  counters: AttemptCounters = memoryAttemptCounter,
) {
  const rate = uploadRatePerHour > 0 ? [limitUploadRate(counters("upload", uploadRatePerHour, 3600), uploadRatePerHour)] : [];
  return [
    endpoint({
      method: "post",
      path: "/images",
      tag: "Images",
      summary: `Upload one JPEG, PNG, WebP or GIF image (at most ${uploadMaxBytes} bytes); metadata is stripped`,
      auth: "required",
      upload: true,
      before: [...rate, ...receiveOneFile(uploadMaxBytes)],
      status: 201,
      response: ImageMetadata,
      // 403: REQUIRE_VERIFIED_EMAIL and an unverified address (docs/api.md "Verified email addresses").
      errors: [403, 413, 415, 429, 503],
      handle: ({ req, user, deps }) => deps.images.upload(req.file!, user.id),
    }),
    endpoint({
      method: "get",
      path: "/images/metadata/{id}",
      tag: "Images",
      summary:
        "An image's metadata, seen by whoever may see its bytes (an unpublished one by its uploader only, a removed thing's by who may see that thing); only the uploader sees its file name",
      auth: "none",
      params: ImageId,
      response: ImageMetadata,
      errors: [404],
      handle: ({ params, user, deps }) => deps.images.metadata(params.id, user ?? undefined),
    }),
    endpoint({
      method: "get",
      path: "/images/{id}",
      tag: "Images",
      summary:
        "An image's bytes; ?w= asks for a narrower rendition (snapped to a fixed set of widths), WebP for a JPEG or PNG when Accept lists image/webp",
      auth: "none",
      params: ImageId,
      query: WidthQuery,
      response: "binary",
      errors: [404],
      handle: async ({ params, query, req, res, user, deps }) => {
        const acceptsWebp = query.w !== undefined && acceptsListed(req.headers.accept, "image/webp");
        const image = await deps.images.bytesFor(params.id, { width: query.w, acceptsWebp }, user ?? undefined);
        // Public: kept a bounded time, then revalidated (a deletion or removal answers 404 then). Private (its
        // uploader's, or a removed thing's shown to who may see it) is kept by no cache.
        res.setHeader("Content-Type", image.contentType);
        // A rendition's format follows Accept (WebP or the original's), so a cache in front must key on it.
        if (query.w !== undefined) res.vary("Accept");
        res.setHeader("Cache-Control", image.public ? PUBLIC_IMAGE_CACHE : "private, no-store");
        // A public answer may be given again before routing (mountEndpoints, ResponseCache.rememberImage).
        if (image.public) res.locals.keptImage = bytesKey(params.id, query.w, acceptsWebp);
        sendWithEtag(req, res, image.etag, image.bytes);
      },
    }),
  ];
}
