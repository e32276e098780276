import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import supertest, { type Response } from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allEndpoints } from "../../server/app.ts";
import { startTestApi, type TestApi } from "../helpers/api.ts";
import { ContractChecker } from "../helpers/contract.ts";
import type { OpenApiDoc } from "../helpers/openapi-doc.ts";

let api: TestApi;
let doc: OpenApiDoc;
beforeAll(async () => {
  api = await startTestApi();
  // Raw supertest: the document is not an operation of itself, so the checked client would refuse it.
  const res = await supertest(api.app).get("/openapi.json");
  expect(res.status).toBe(200);
  expect(res.type).toBe("application/json");
  doc = res.body;
});
afterAll(() => api.close());

const endpoints = allEndpoints({ uploadMaxBytes: 10 * 1024 * 1024 });
const ERROR_REF = { $ref: "#/components/schemas/Error" };
const operationOf = (e: (typeof endpoints)[number]) => doc.paths[e.path]?.[e.method];

describe("GET /openapi.json", () => {
  it("is an OpenAPI 3.1.0 document", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.schemas.Error).toMatchObject({
      type: "object",
      required: expect.arrayContaining(["status", "error", "message"]),
    });
  });

  it("has exactly one operation per declared endpoint", () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    const declared = endpoints.map((e) => `${e.method} ${e.path}`);

    expect(documented.sort()).toEqual(declared.sort());
    expect(new Set(declared).size).toBe(declared.length);
  });

  it("gives every operation a unique operationId", () => {
    const ids = endpoints.map((e) => operationOf(e)!.operationId);

    expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  describe.each(endpoints.map((e) => [`${e.method.toUpperCase()} ${e.path}`, e] as const))("%s", (_label, e) => {
    it("has its summary and a parameter for each path segment", () => {
      const op = operationOf(e)!;
      const pathParams = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

      expect(op.summary).toBe(e.summary);
      expect(Array.isArray(op.parameters)).toBe(true);
      const documented = op.parameters.filter((p) => p.in === "path");
      expect(documented.map((p) => p.name).sort()).toEqual(pathParams.sort());
      expect(documented.every((p) => p.required && typeof p.schema === "object")).toBe(true);
    });

    it("documents its success response with a schema", () => {
      const success = operationOf(e)!.responses[String(e.status ?? 200)];

      expect(success).toBeDefined();
      if (e.response === "binary") {
        const types = e.binaryTypes ?? ["image/jpeg", "image/png", "image/webp", "image/gif"];
        expect(Object.keys(success!.content ?? {})).toEqual(expect.arrayContaining(types));
      } else {
        const schema = success!.content?.["application/json"]?.schema;
        expect(schema?.type ?? schema?.$ref ?? schema?.anyOf, JSON.stringify(schema)).toBeDefined();
      }
    });

    it("documents 400, 401 and each declared error with the Error schema", () => {
      const { responses } = operationOf(e)!;

      for (const status of [400, 401, ...e.errors]) {
        expect(responses[String(status)]?.content?.["application/json"]?.schema, `status ${status}`).toEqual(ERROR_REF);
      }
    });

    it(e.method === "get" ? "documents 304 for If-None-Match and no 503" : "documents 503 (storage full) and no 304", () => {
      const { responses } = operationOf(e)!;

      if (e.method === "get") {
        expect(responses["304"]).toBeDefined();
        expect(responses["304"]!.content).toBeUndefined();
        expect(responses["503"]).toBeUndefined();
      } else {
        expect(responses["503"]?.content?.["application/json"]?.schema).toEqual(ERROR_REF);
        expect(responses["304"]).toBeUndefined();
      }
    });

    if (!e.body) {
      it("documents neither 413 nor 415 unless it reads a body (an upload) or declares them", () => {
        const { responses } = operationOf(e)!;

        if (!e.upload && !e.errors.includes(413)) expect(responses["413"]).toBeUndefined();
        if (!e.upload && !e.errors.includes(415)) expect(responses["415"]).toBeUndefined();
      });
    }

    if (e.body) {
      it("documents its JSON body, and 413 and 415 for bodies the parser refuses", () => {
        const op = operationOf(e)!;

        expect(op.requestBody?.content["application/json"]?.schema).toMatchObject({ type: "object" });
        expect(op.responses["413"]?.content?.["application/json"]?.schema).toEqual(ERROR_REF);
        expect(op.responses["415"]?.content?.["application/json"]?.schema).toEqual(ERROR_REF);
      });
    }
  });

  it("documents the upload as multipart/form-data with 413 and 415", () => {
    const upload = doc.paths["/images"]!.post!;

    expect(upload.requestBody?.content["multipart/form-data"]?.schema).toMatchObject({ required: ["file"] });
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(["201", "413", "415"]));
  });

  it("compiles every schema in the document with Ajv 2020", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    // Registered whole, so that "#/components/schemas/Error" resolves inside each compiled schema.
    ajv.addSchema({ ...doc, $id: "openapi.json" });
    const pointer = (...parts: string[]) => `openapi.json#/${parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
    const refs: string[] = Object.keys(doc.components.schemas).map((name) => pointer("components", "schemas", name));
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        op.parameters?.forEach((_p, i) => refs.push(pointer("paths", path, method, "parameters", String(i), "schema")));
        for (const type of Object.keys(op.requestBody?.content ?? {}))
          refs.push(pointer("paths", path, method, "requestBody", "content", type, "schema"));
        for (const [status, response] of Object.entries(op.responses)) {
          for (const type of Object.keys(response.content ?? {}))
            refs.push(pointer("paths", path, method, "responses", status, "content", type, "schema"));
        }
      }
    }

    for (const ref of refs) expect(() => ajv.compile({ $ref: ref }), ref).not.toThrow();
    expect(refs.length).toBeGreaterThan(endpoints.length * 3);
  });

  it("has schemas that accept the API's real answers and reject wrong ones", async () => {
    const ajv = new Ajv2020({ strict: false });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    const user = await api.register("openapi_user");
    const me = await api.request.get(`/user/${user.username}`).set(user.auth);
    const validate = ajv.compile(doc.paths["/user/{username}"]!.get!.responses["200"]!.content!["application/json"]!.schema);

    expect(validate(me.body)).toBe(true);
    expect(validate({ ...me.body, joinedAt: "yesterday" })).toBe(false);
    expect(validate({ ...me.body, id: "1" })).toBe(false);
  });
});

describe("the contract checker used by every test", () => {
  let checker: ContractChecker;
  beforeAll(() => {
    checker = new ContractChecker(doc);
  });
  const response = (status: number, body: unknown, type = "application/json") => ({ status, body, type }) as unknown as Response;
  const emptyPage = { content: [], page: 1, perPage: 10, totalPages: 1, totalElements: 0 };

  it("accepts a response that matches the document", () => {
    expect(() => checker.check("get", "/hubs?page=1", response(200, emptyPage))).not.toThrow();
  });

  it("rejects a success body that does not match the schema", () => {
    expect(() => checker.check("get", "/hubs", response(200, { ...emptyPage, totalPages: 0 }))).toThrow(/does not match/);
    expect(() => checker.check("get", "/hubs", response(200, { items: [] }))).toThrow(/does not match/);
  });

  it("rejects an item that lacks a required field", () => {
    const hub = { id: 1, name: "A hub" };

    expect(() => checker.check("get", "/hubs", response(200, { ...emptyPage, content: [hub], totalElements: 1 }))).toThrow(
      /does not match/,
    );
  });

  it("rejects a status the operation does not document", () => {
    expect(() => checker.check("get", "/hubs", response(404, { status: 404, error: "Not Found", message: "x" }))).toThrow(/not documented/);
    expect(() => checker.check("get", "/hubs", response(413, { status: 413, error: "Payload Too Large", message: "x" }))).toThrow(
      /not documented/,
    );
    expect(() => checker.check("get", "/hubs", response(503, { status: 503, error: "Service Unavailable", message: "x" }))).toThrow(
      /not documented/,
    );
    expect(() => checker.check("post", "/hubs", response(503, { status: 503, error: "Service Unavailable", message: "x" }))).not.toThrow();
  });

  it("rejects a 500 anywhere, and any other 5xx the operation does not document", () => {
    expect(() => checker.check("get", "/hubs", response(500, { status: 500, error: "Internal Server Error", message: "boom" }))).toThrow(
      /500 is always a bug/,
    );
    expect(() => checker.check("post", "/hubs", response(500, { status: 500, error: "Internal Server Error", message: "boom" }))).toThrow(
      /500 is always a bug/,
    );
    expect(() => checker.check("get", "/nope", response(502, { status: 502, error: "Bad Gateway", message: "x" }))).toThrow(/must be 404/);
  });

  it("rejects an error that is not JSON, or whose body names another status", () => {
    expect(() => checker.check("get", "/hubs", response(400, "<html>Bad Request</html>", "text/html"))).toThrow(/must be JSON/);
    expect(() => checker.check("get", "/hubs", response(400, { status: 401, error: "Unauthorized", message: "x" }))).toThrow(
      /another status/,
    );
    expect(() => checker.check("get", "/nope", response(404, "Cannot GET /nope", "text/html"))).toThrow(/must be JSON/);
  });

  it("rejects a success in a content type the operation does not document", () => {
    expect(() => checker.check("get", "/hubs", response(200, "{}", "text/plain"))).toThrow(/content type/);
    expect(() => checker.check("get", "/images/1", response(200, {}, "text/html"))).toThrow(/content type/);
    expect(() => checker.check("get", "/images/1", response(200, {}, "image/png"))).not.toThrow();
  });

  it("rejects an error body without the contract's fields", () => {
    expect(() => checker.check("get", "/hubs", response(400, { error: "Bad Request" }))).toThrow(/does not match/);
    expect(() =>
      checker.check("get", "/hubs", response(400, { status: 400, error: "Bad Request", message: "x", errors: [{ field: "x" }] })),
    ).toThrow(/does not match/);
  });

  it("rejects anything but 404 from a route the document does not have", () => {
    expect(() => checker.check("get", "/not-documented", response(200, {}))).toThrow(/undocumented route/);
    expect(() =>
      checker.check("get", "/not-documented", response(404, { status: 404, error: "Not Found", message: "No route" })),
    ).not.toThrow();
  });

  it("routes dot segments as sent, as Express does, without resolving them", () => {
    const badId = response(400, { status: 400, error: "Bad Request", message: "User id must be a positive whole number" });

    expect(() => checker.check("get", "/user/id/..?page=1", badId)).not.toThrow();
    expect(() => checker.check("get", "/user/id/.", badId)).not.toThrow();
  });

  it("routes like Express: a fixed path wins over a named one", () => {
    // /hubs/top answers a page; checked as /hubs/{name} it would need a HubDetail and fail.
    expect(() => checker.check("get", "/hubs/top", response(200, emptyPage))).not.toThrow();
  });
});
