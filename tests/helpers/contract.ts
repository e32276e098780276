import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { Response } from "supertest";
import { expect } from "vitest";

type OpenApi = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>;
  components: { schemas: Record<string, object> };
};

/**
 * Checks every response a test receives against /openapi.json: the operation must document the
 * status, and a JSON body must validate against that status's schema.
 */
export class ContractChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly routes: { method: string; pattern: RegExp; path: string }[];
  private readonly validators = new Map<string, ReturnType<Ajv2020["compile"]>>();

  constructor(private readonly doc: OpenApi) {
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
  private operationFor(method: string, url: string) {
    // Not `new URL(...).pathname`: it resolves "." and ".." segments, which are sent and routed as they are.
    const pathname = url.replace(/^[a-z]+:\/\/[^/]+/i, "").split(/[?#]/, 1)[0]!;
    return this.routes.find((r) => r.method === method && r.pattern.test(pathname));
  }

  check(method: string, url: string, res: Response): void {
    const route = this.operationFor(method, url);
    const where = `${method.toUpperCase()} ${url} -> ${res.status}`;
    if (res.status >= 400 && res.type === "application/json") {
      this.validate("error", this.doc.components.schemas.Error!, res.body, where);
    }
    if (!route) {
      expect(res.status, `${where}: undocumented route must be 404`).toBe(404);
      return;
    }
    const operation = this.doc.paths[route.path]![route.method]!;
    const documented = operation.responses[String(res.status)];
    expect(documented, `${where}: status not documented for ${route.method.toUpperCase()} ${route.path}`).toBeDefined();
    const schema = documented?.content?.["application/json"]?.schema;
    if (schema && res.status < 400) this.validate(`${route.method} ${route.path} ${res.status}`, schema, res.body, where);
  }

  private validate(key: string, schema: object, body: unknown, where: string) {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.validators.set(key, validate);
    }
    const ok = validate(body);
    expect(ok, `${where}: body does not match the OpenAPI schema: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`).toBe(true);
  }
}
