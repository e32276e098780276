import { z } from "zod";
import { ErrorBody } from "../rules/api-responses.ts";
import { answeredStatuses, type AnyEndpoint } from "./endpoint.ts";

type JsonSchema = Record<string, unknown>;

const REASONS: Record<number, string> = {
  400: "Bad input: malformed JSON, invalid fields (with `errors`), bad paging or ids",
  401: "No token where one is required, or an expired, tampered or unparseable token",
  403: "Signed in but not allowed",
  404: "No such thing",
  409: "Name, username or email taken",
  413: "Body or upload too large",
  415: "Not a supported image, or a body encoding the API does not read",
  429: "Too many attempts; try again later",
  431: "Request headers (a token, a URL) over 16 KB",
  503: "The server cannot store this now (disk full); nothing was changed, try again later",
};

const schemaOf = (schema: z.ZodType, io: "input" | "output"): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
};

function parameters(endpoint: AnyEndpoint) {
  const list: JsonSchema[] = [];
  const add = (schema: unknown, where: "path" | "query") => {
    if (!(schema instanceof z.ZodObject)) return;
    for (const [name, field] of Object.entries<z.ZodType>(schema.shape)) {
      const required = where === "path" || !field.safeParse(undefined).success;
      list.push({ name, in: where, required, schema: schemaOf(field, "input") });
    }
  };
  add(endpoint.params, "path");
  add(endpoint.query, "query");
  return list;
}

/** The OpenAPI 3.1 document, built from the same declarations that validate the requests. */
export function buildOpenApi(endpoints: AnyEndpoint[], extra: { version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorResponse = (status: number) => ({
    description: REASONS[status] ?? "Error",
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  });

  for (const e of endpoints) {
    const responses: Record<string, unknown> = {
      [String(e.status ?? 200)]:
        e.response === "binary"
          ? {
              description: e.binaryTypes ? "The file" : "The image bytes",
              content: Object.fromEntries(
                (e.binaryTypes ?? ["image/jpeg", "image/png", "image/webp", "image/gif"]).map((t) => [
                  t,
                  { schema: { type: "string", contentMediaType: t } },
                ]),
              ),
            }
          : { description: "Success", content: { "application/json": { schema: schemaOf(e.response, "output") } } },
    };
    for (const status of e.otherStatuses ?? []) responses[String(status)] = responses[String(e.status ?? 200)];
    for (const status of answeredStatuses(e)) {
      responses[String(status)] =
        status === 304 ? { description: "Not modified: the ETag sent in If-None-Match is current" } : errorResponse(status);
    }

    const operation: Record<string, unknown> = {
      tags: [e.tag],
      summary: e.summary,
      operationId: `${e.method}${e.path.replace(/[{}]/g, "").replace(/(^|[/-])(\w)/g, (_m, _s, c: string) => c.toUpperCase())}`,
      parameters: parameters(e),
      responses,
      ...(e.auth === "required" ? { security: [{ bearer: [] }] } : { security: [{}, { bearer: [] }] }),
    };
    if (e.body) {
      operation.requestBody = { required: true, content: { "application/json": { schema: schemaOf(e.body, "input") } } };
    } else if (e.upload) {
      operation.requestBody = {
        required: true,
        content: {
          "multipart/form-data": {
            schema: {
              type: "object",
              required: ["file"],
              properties: { file: { type: "string", contentMediaType: "application/octet-stream" } },
            },
          },
        },
      };
    }
    (paths[e.path] ??= {})[e.method] = operation;
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Inkwell API",
      version: extra.version,
      description:
        "Hubs, posts, series, chapters, images and users. Errors always have the body of `Error`. " +
        "A request with an expired, tampered or unparseable bearer token gets 401 on every endpoint.",
    },
    paths,
    components: {
      schemas: { Error: schemaOf(ErrorBody, "output") },
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
    },
  };
}
