import type { ActionFunctionArgs } from "@remix-run/node";
import { createApi } from "../lib/api.server.ts";
import { clearSession, optionalUser } from "../lib/session.server.ts";
import { forwardFile, isMultipart, readOneFile } from "../lib/uploads.server.ts";
import { TOO_LARGE_MESSAGE } from "../lib/uploads.ts";

/** Room for the multipart envelope around the file. */
const ENVELOPE_BYTES = 64 * 1024;

const reply = (status: number, body: unknown, headers: HeadersInit = {}) => Response.json(body, { status, headers });

/**
 * POST /uploads: one image (multipart field `file`) from the signed-in user's browser, forwarded
 * to the API's POST /images with the session's token (the browser never holds it). Answers the
 * image's metadata (201), or the API's refusal with its status and message (413, 415...). The
 * file is held in memory up to the API's limit and never more. Called by XMLHttpRequest, so a
 * missing or ended session is a 401, not a redirect.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return reply(405, { status: 405, message: "Use POST" }, { Allow: "POST" });
  const session = await optionalUser(request, context).catch(() => null);
  if (!session) return reply(401, { status: 401, message: "Please log in to continue" });

  const max = context.config.uploadMaxBytes;
  const length = Number(request.headers.get("Content-Length") ?? "0");
  if (length > max + ENVELOPE_BYTES) return reply(413, { status: 413, message: TOO_LARGE_MESSAGE });
  if (!isMultipart(request)) return reply(415, { status: 415, message: "Send the image as multipart/form-data in the field 'file'" });

  let file: Awaited<ReturnType<typeof readOneFile>>;
  try {
    file = await readOneFile(request, max);
  } catch {
    return reply(400, { status: 400, message: "The upload could not be read. Please try again." });
  }
  if (!file) return reply(400, { status: 400, message: "Choose an image to upload" });
  if (!file.chunks) return reply(413, { status: 413, message: TOO_LARGE_MESSAGE });

  const api = createApi(context, { token: session.token, signal: request.signal });
  const outcome = await forwardFile(api, file.chunks, file.fileName, file.contentType);
  if (outcome.ok) return reply(201, outcome.image);
  if (outcome.status === 401)
    return reply(401, { status: 401, message: "Please log in to continue" }, { "Set-Cookie": await clearSession(context) });
  return reply(outcome.status || 502, { status: outcome.status || 502, message: outcome.message });
}

export function loader() {
  return reply(405, { status: 405, message: "Use POST" }, { Allow: "POST" });
}
