import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { Response } from "supertest";
import { expect } from "vitest";
import type { OpenApiDoc } from "./openapi-doc.ts";

/**
 * Checks every response a test receives against /openapi.json: the operation must document the
 * status, and a JSON body must validate against that status's schema.
 */
export class ContractChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly routes: { method: string; pattern: RegExp; path: string }[];
  private readonly validators = new Map<string, ReturnType<Ajv2020["compile"]>>();

  private readonly doc: OpenApiDoc;
  constructor(doc: OpenApiDoc) {
    this.doc = doc;
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
    this.routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => ({
        method,
        path,
        pattern: new RegExp(`^${path.replace(/\{\w+\}/g, "[^/]+")}/?$`, "i"),
      })),
    );
  }

  /** The documented operation Express would route this request to (first match, same order). */
  operationFor(method: string, url: string) {
    // Not `new URL(...).pathname`: it resolves "." and ".." segments, which are sent and routed as they are.
    const pathname = url.replace(/^[a-z]+:\/\/[^/]+/i, "").split(/[?#]/, 1)[0]!;
    return this.routes.find((r) => r.method === method && r.pattern.test(pathname));
  }

  /**
   * `res` is a supertest response, or anything with its status, media type (no parameters) and
   * parsed JSON body (the fuzz test's own client).
   */
  check(method: string, url: string, res: Pick<Response, "status" | "type" | "body">): void {
    const route = this.operationFor(method, url);
    const where = `${method.toUpperCase()} ${url} -> ${res.status}`;
    // 500 is always a bug; a documented 503 (storage full) is an answer like any other.
    expect(res.status, `${where}: a 500 is always a bug`).not.toBe(500);
    if (res.status >= 400) {
      // Every error, whatever its cause, in the contract's body (docs/api.md §2).
      expect(res.type, `${where}: an error must be JSON`).toBe("application/json");
      this.validate("error", this.doc.components.schemas.Error!, res.body, where);
      expect((res.body as { status?: number }).status, `${where}: the error body names another status`).toBe(res.status);
    }
    if (!route) {
      // A bad token is refused before routing (docs/api.md §5), so an unknown route may answer 401 too;
      // a path that is not valid percent-encoding is a 400 wherever it points.
      const expected = hasMalformedPath(url) ? [400] : [401, 404];
      expect(expected, `${where}: undocumented route must be 404 (400 for a malformed path)`).toContain(res.status);
      return;
    }
    const operation = this.doc.paths[route.path]![route.method]!;
    const documented = operation.responses[String(res.status)];
    expect(documented, `${where}: status not documented for ${route.method.toUpperCase()} ${route.path}`).toBeDefined();
    if (!documented || res.status >= 400 || res.status === 304) return;
    const types = Object.keys(documented.content ?? {});
    if (types.length > 0) expect(types, `${where}: content type ${res.type} not documented`).toContain(res.type);
    const schema = documented.content?.["application/json"]?.schema;
    if (schema && res.type === "application/json") this.validate(`${route.method} ${route.path} ${res.status}`, schema, res.body, where);
  }

  private validate(key: string, schema: object, body: unknown, where: string) {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.validators.set(key, validate);
    }
    const ok = validate(body);
    expect(
      ok,
      `${where}: body does not match the OpenAPI schema: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
    ).toBe(true);
  }
}

function hasMalformedPath(url: string): boolean {
  try {
    decodeURIComponent(new URL(url, "http://api.test").pathname);
    return false;
  } catch {
    return true;
  }
}
