// Image uploads from the browser: the messages, and the XMLHttpRequest that reports progress.
// Client-safe (no server imports): the upload route and the forms share these words.
import type { ImageMetadata } from "../../server/rules/api-responses.ts";

/** Where the browser sends images (app/routes/uploads.tsx forwards them to the API). */
export const UPLOAD_PATH = "/uploads";

/** The API's limit (UPLOAD_MAX_BYTES, default 10 MB), for messages and the browser's own check. */
export const UPLOAD_MAX_BYTES_DEFAULT = 10 * 1024 * 1024;

export const ACCEPTED_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;
/** For `<input type="file" accept>`. */
export const ACCEPT_ATTRIBUTE = ACCEPTED_TYPES.join(",");

export const TOO_LARGE_MESSAGE = "The file is too large";
export const UNSUPPORTED_MESSAGE = "Only JPEG, PNG, WebP and GIF images are accepted";

export interface UploadFailure {
  ok: false;
  /** HTTP status (413 too large, 415 not an image, 0 no connection...). */
  status: number;
  fileName: string;
  message: string;
}

export const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/** "820 KB", "2.4 MB". */
export const fileSize = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : megabytes(bytes));

/** One line a person understands: which file, and what to do about it. */
export function describeUploadFailure(
  f: Pick<UploadFailure, "status" | "fileName" | "message">,
  maxBytes = UPLOAD_MAX_BYTES_DEFAULT,
): string {
  if (f.status === 413) return `${f.fileName}: ${TOO_LARGE_MESSAGE} (at most ${megabytes(maxBytes)}).`;
  if (f.status === 415) return `${f.fileName}: ${UNSUPPORTED_MESSAGE}.`;
  return `${f.fileName}: ${f.message}`;
}

/**
 * Refusals the browser can tell before sending anything: a declared type that is not an image,
 * or a file over the limit. Files with no declared type go to the server, which judges the bytes.
 */
export function precheckFile(
  file: { name: string; size: number; type: string },
  maxBytes = UPLOAD_MAX_BYTES_DEFAULT,
): UploadFailure | null {
  if (file.size > maxBytes) return { ok: false, status: 413, fileName: file.name, message: TOO_LARGE_MESSAGE };
  if (file.type && !(ACCEPTED_TYPES as readonly string[]).includes(file.type)) {
    return { ok: false, status: 415, fileName: file.name, message: UNSUPPORTED_MESSAGE };
  }
  return null;
}

export interface UploadHandle {
  promise: Promise<ImageMetadata>;
  abort(): void;
}

/** An upload's failure, thrown by `uploadWithProgress`. */
export class UploadError extends Error {
  readonly failure: UploadFailure;
  constructor(failure: UploadFailure) {
    super(failure.message);
    this.failure = failure;
  }
}

/**
 * Sends one file to the upload route with XMLHttpRequest (fetch cannot report upload progress),
 * calling `onProgress` with 0..1. Resolves to the image's metadata; rejects with an UploadError.
 */
export function uploadWithProgress(file: File, onProgress: (fraction: number) => void): UploadHandle {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<ImageMetadata>((resolve, reject) => {
    const fail = (status: number, message: string) => reject(new UploadError({ ok: false, status, fileName: file.name, message }));
    xhr.upload.addEventListener("progress", (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    });
    xhr.addEventListener("load", () => {
      let body: { message?: string } & Partial<ImageMetadata> = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // An HTML error page: the status says enough.
      }
      if (xhr.status === 201 || xhr.status === 200) {
        onProgress(1);
        resolve(body as ImageMetadata);
      } else if (xhr.status === 401) fail(401, "Please log in to continue");
      else fail(xhr.status, body.message ?? "The upload failed. Please try again.");
    });
    xhr.addEventListener("error", () => fail(0, "Network error. Please check your connection."));
    xhr.addEventListener("abort", () => fail(0, "The upload was cancelled"));
    const form = new FormData();
    form.append("file", file, file.name);
    xhr.open("POST", UPLOAD_PATH);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}

/**
 * Where the signed-in user's browser loads their own image: the web app's /uploads/{id}, which
 * fetches it with the session's token. Used wherever an owner sees their uploads (the publish forms,
 * their image page), since the API shows an image nothing published yet to its uploader only.
 */
export const ownImageUrl = (id: number, width?: number) => `${UPLOAD_PATH}/${id}${width ? `?w=${width}` : ""}`;
