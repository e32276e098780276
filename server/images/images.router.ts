import type { RequestHandler } from "express";
import multer from "multer";
import { z } from "zod";
import { endpointsFor } from "../http/endpoint.ts";
import { badRequest, HttpError, notFound } from "../http/errors.ts";
import { ImageMetadata } from "../rules/responses.ts";
import { idParam } from "../rules/text.ts";
import type { Services } from "../services.ts";

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

const YEAR_SECONDS = 365 * 24 * 3600;

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
    if (!req.file) return next(badRequest("Send one image in the multipart field 'file'", [{ field: "file", message: "Choose an image to upload" }]));
    next();
  };
  return [requireMultipart, upload, requireFile];
}

export function imageEndpoints(uploadMaxBytes: number) {
  return [
    endpoint({
      method: "post",
      path: "/images",
      tag: "Images",
      summary: `Upload one JPEG, PNG, WebP or GIF image (at most ${uploadMaxBytes} bytes); metadata is stripped`,
      auth: "required",
      upload: true,
      before: receiveOneFile(uploadMaxBytes),
      status: 201,
      response: ImageMetadata,
      errors: [413, 415],
      handle: ({ req, user, deps }) => deps.images.upload(req.file!, user!.id),
    }),
    endpoint({
      method: "get",
      path: "/images/metadata/{id}",
      tag: "Images",
      summary: "An image's metadata",
      auth: "none",
      params: ImageId,
      response: ImageMetadata,
      errors: [404],
      handle: ({ params, deps }) => deps.images.metadata(params.id),
    }),
    endpoint({
      method: "get",
      path: "/images/{id}",
      tag: "Images",
      summary: "An image's bytes; ?w= asks for a narrower rendition (snapped to a fixed set of widths)",
      auth: "none",
      params: ImageId,
      query: WidthQuery,
      response: "binary",
      errors: [404],
      handle: async ({ params, query, res, deps }) => {
        const file = await deps.images.fileFor(params.id, query.w);
        // Image ids are never reused and images never change: cache for a year.
        await new Promise<void>((resolve, reject) =>
          res.sendFile(
            file.path,
            { maxAge: YEAR_SECONDS * 1000, immutable: true, headers: { "Content-Type": file.contentType } },
            (err?: NodeJS.ErrnoException) => {
              // A reader who navigates away mid-image is routine, not a server fault.
              if (!err || err.code === "ECONNABORTED") return resolve();
              // Gone since the lookup: a plain 404, never the file's path in the message.
              if (err.code === "ENOENT" && !res.headersSent) return reject(notFound("Image not found"));
              reject(err);
            },
          ),
        );
      },
    }),
  ];
}
