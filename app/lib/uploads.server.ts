import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import type { ImageMetadata } from "../../server/rules/api-responses.ts";
import { ApiError, type Api } from "./api.server.ts";
import { TOO_LARGE_MESSAGE, UNSUPPORTED_MESSAGE, type UploadFailure } from "./uploads.ts";

/** What became of one uploaded file. */
export type UploadOutcome = { ok: true; image: ImageMetadata } | UploadFailure;

/** Text fields of a form are small; anything bigger is not from our forms. */
const MAX_TEXT_PART_BYTES = 256 * 1024;

/**
 * Reads a part's bytes, at most `max` of them. Beyond that it reads on without keeping anything
 * (the multipart stream must be consumed to reach the next part) and answers null.
 */
async function readAtMost(data: AsyncIterable<Uint8Array>, max: number): Promise<Uint8Array[] | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of data) {
    if (tooLarge) continue;
    size += chunk.byteLength;
    if (size > max) {
      tooLarge = true;
      chunks.length = 0;
    } else chunks.push(chunk);
  }
  return tooLarge ? null : chunks;
}

/** The API's refusal of one file, kept as data; a 401 (thrown redirect) and bugs still end the request. */
function failure(err: unknown, fileName: string): UploadFailure {
  if (!(err instanceof ApiError)) throw err;
  if (err.status === 413) return { ok: false, status: 413, fileName, message: TOO_LARGE_MESSAGE };
  if (err.status === 415) return { ok: false, status: 415, fileName, message: err.message || UNSUPPORTED_MESSAGE };
  if (err.status === 0) return { ok: false, status: 0, fileName, message: "Network error. Please check your connection." };
  return { ok: false, status: err.status, fileName, message: err.message || "The upload failed" };
}

/** Sends one file's bytes to the API's POST /images as the signed-in user. */
export async function forwardFile(api: Api, chunks: Uint8Array[], fileName: string, contentType: string): Promise<UploadOutcome> {
  try {
    return {
      ok: true,
      image: await api.uploadImage(new Blob(chunks as BlobPart[], { type: contentType || "application/octet-stream" }), fileName),
    };
  } catch (err) {
    return failure(err, fileName);
  }
}

export interface ReadForm {
  form: FormData;
  /** Per file field, the outcome of each file sent in it, in order. */
  uploads: Record<string, UploadOutcome[]>;
}

const isMultipart = (request: Request) => (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data");

/**
 * A form post, with its files (if any) forwarded to the API one at a time as they stream in:
 * at most one file, of at most `maxBytes`, is held in memory at once. Files in fields not listed
 * in `fileFields` are read past and dropped. Without JavaScript, this is how the forms' image
 * and page inputs reach the API.
 */
export async function readForm(request: Request, api: Api, maxBytes: number, fileFields: readonly string[] = []): Promise<ReadForm> {
  const uploads: Record<string, UploadOutcome[]> = {};
  if (!isMultipart(request)) return { form: await request.formData(), uploads };
  const handler: UploadHandler = async ({ name, filename, contentType, data }) => {
    if (typeof filename !== "string") {
      const chunks = await readAtMost(data, MAX_TEXT_PART_BYTES);
      return chunks ? new TextDecoder().decode(concat(chunks)) : undefined;
    }
    const chunks = await readAtMost(data, maxBytes);
    // An empty file input sends a part with no name and no bytes.
    if (!fileFields.includes(name) || (filename === "" && (chunks?.length ?? 0) === 0)) return undefined;
    const outcome: UploadOutcome = chunks
      ? await forwardFile(api, chunks, filename || "image", contentType)
      : { ok: false, status: 413, fileName: filename, message: TOO_LARGE_MESSAGE };
    (uploads[name] ??= []).push(outcome);
    return undefined;
  };
  return { form: await unstable_parseMultipartFormData(request, handler), uploads };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** Reads the first file of field `file` (the upload route): its bytes up to `maxBytes`, or null when larger. */
export async function readOneFile(
  request: Request,
  maxBytes: number,
): Promise<{ chunks: Uint8Array[] | null; fileName: string; contentType: string } | undefined> {
  let found: { chunks: Uint8Array[] | null; fileName: string; contentType: string } | undefined;
  await unstable_parseMultipartFormData(request, async ({ name, filename, contentType, data }) => {
    if (found || name !== "file" || typeof filename !== "string" || filename === "") {
      await readAtMost(data, 0);
      return undefined;
    }
    found = { chunks: await readAtMost(data, maxBytes), fileName: filename, contentType };
    return undefined;
  });
  return found;
}

export { isMultipart };
