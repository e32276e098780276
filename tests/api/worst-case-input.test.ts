/**
 * Worst-case strings in every text field of every operation (body, query and path, read from
 * /openapi.json so new endpoints are covered): each must be answered, 2xx or 4xx, in well under
 * 100 ms. A rule that backtracks or does quadratic work on input (a regex, a normalisation) shows
 * up here long before it blocks the event loop in production.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { ContractChecker } from "../helpers/contract.ts";
import type { JsonSchema, OpenApiDoc } from "../helpers/openapi-doc.ts";
import { listenOnFreePort, type ListeningApp } from "../helpers/listening-app.ts";
import { uploadImage } from "../helpers/images.ts";

const LIMIT_MS = 100;
const BODY_LIMIT = 1024 * 1024;
/** Room for the JSON around the field and the other fields. */
const BODY_ROOM = BODY_LIMIT - 8 * 1024;
/** An encoded URL stays under Node's 16 KB header limit (past it Node answers 431 before the app). */
const URL_ROOM = 12_000;

/** Worst cases by name, each made to fit `bytes` once encoded by `encodedSize`. */
const PATTERNS: [string, (fit: (unit: string, prefix?: string, suffix?: string) => string) => string][] = [
  ['"a@" + "." * N + "@"', (fit) => fit(".", "a@", "@")],
  ['"a@" + "." * N', (fit) => fit(".", "a@")],
  ['"/" * N + "x"', (fit) => fit("/", "", "x")],
  ["spaces", (fit) => fit(" ", "", "x")],
  ["mixed whitespace", (fit) => fit(" \t\n\u00A0\u2003", "x", "x")],
  ['"a" * N', (fit) => fit("a")],
  ["one combining mark", (fit) => fit("\u0301", "e")],
  ["combining marks of two classes (reordered by NFC)", (fit) => fit("\u0301\u0323", "e")],
  ['"\\uD800" * N', (fit) => fit("\uD800")],
  ['"@" * N', (fit) => fit("@")],
  ["digits", (fit) => fit("1")],
  ['"a." * N', (fit) => fit("a.", "", "@")],
];

/** A string of `unit` repeated to fill `room` units of `size` (bytes of JSON, or of an encoded URL). */
function filler(room: number, size: (s: string) => number) {
  return (unit: string, prefix = "", suffix = "") => {
    const count = Math.floor((room - size(prefix + suffix)) / size(unit));
    return prefix + unit.repeat(Math.max(0, count)) + suffix;
  };
}
const jsonSize = (s: string) => Buffer.byteLength(JSON.stringify(s)) - 2;
/** encodeURIComponent, with a lone surrogate as its three (invalid UTF-8) bytes rather than an exception. */
const encode = (s: string) =>
  Array.from(s, (ch) => {
    const code = ch.charCodeAt(0);
    if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join("");
    }
    return encodeURIComponent(ch);
  }).join("");
const urlSize = (s: string) => encode(s).length;

let api: TestApi;
let alice: TestUser;
let listening: ListeningApp | undefined;
let port: number;
let doc: OpenApiDoc;
let checker: ContractChecker;
const agent = new http.Agent({ keepAlive: true });
const valid: Record<string, string | number | number[]> = {};

beforeAll(async () => {
  api = await startTestApi();
  alice = await api.register("worst_alice", "worstpass1");
  const image = await uploadImage(api, alice);
  const hub = await api.request.post("/hubs").set(alice.auth).send({ name: "Worst Hub", description: "d" });
  const post = await api.request
    .post("/hub-posts")
    .set(alice.auth)
    .send({ title: "T", content: "C", description: "D", hubId: hub.body.id });
  await api.request.post("/series").set(alice.auth).send({ name: "Worst Series", description: "d" });
  await api.request
    .post("/series/Worst%20Series/chapters")
    .set(alice.auth)
    .send({ title: "One", description: "", content: "", pages: [image] });
  // Valid values by parameter or field name: the field under test is the only bad one.
  Object.assign(valid, {
    id: alice.id,
    userId: alice.id,
    hubId: hub.body.id,
    seriesId: 1,
    postId: post.body.id,
    chapterNumber: 1,
    number: 2,
    name: "Worst Hub",
    hubName: "Worst Hub",
    username: alice.username,
    imageId: image,
    coverId: image,
    profileImageId: image,
    profileBannerId: image,
    profileImageID: image,
    profileBannerID: image,
    pages: [image],
  });

  listening = await listenOnFreePort(api.app);
  port = listening.port;
  doc = JSON.parse((await send("GET", "/openapi.json")).text) as OpenApiDoc;
  checker = new ContractChecker(doc);
});

afterAll(async () => {
  agent.destroy();
  await listening?.close();
  await api?.close();
});

/**
 * `ms` is the smaller of the wall time and the CPU time this process (client and server both) spent
 * on the request: requests go one at a time, so on a machine busy with other work the CPU time still
 * shows how long the event loop was held, while wall time grows with the machine's load.
 */
function send(
  method: string,
  path: string,
  body?: Buffer,
): Promise<{ status: number; type: string; text: string; ms: number; wallMs: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { Authorization: alice.auth.Authorization };
    if (body) Object.assign(headers, { "Content-Type": "application/json", "Content-Length": body.length });
    const req = http.request({ host: "127.0.0.1", port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const wallMs = performance.now() - started;
        const used = process.cpuUsage(cpu);
        resolve({
          status: res.statusCode!,
          type: (res.headers["content-type"] ?? "").split(";")[0]!,
          text: Buffer.concat(chunks).toString("utf8"),
          ms: Math.min(wallMs, (used.user + used.system) / 1000),
          wallMs,
        });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

const isText = (schema: JsonSchema): boolean =>
  schema.anyOf ? schema.anyOf.some(isText) : schema.type === "string" || (Array.isArray(schema.type) && schema.type.includes("string"));

function validValue(name: string, schema: JsonSchema): unknown {
  if (name in valid) return valid[name];
  if (schema.anyOf) return validValue(name, schema.anyOf.find((s) => s.type !== "null") ?? {});
  if (schema.type === "integer" || schema.type === "number") return 1;
  if (schema.type === "array") return [validValue(name, schema.items ?? {})];
  if (schema.type === "boolean") return false;
  if (name.toLowerCase().includes("password")) return "worstpass1";
  if (name === "email") return "worst@example.com";
  return "Valid text";
}

interface Case {
  operation: string;
  where: "body" | "query" | "path";
  field: string;
  pattern: string;
  request: () => { method: string; path: string; body?: Buffer };
}

/** Every text field of every operation, each with every pattern. */
function cases(): Case[] {
  const list: Case[] = [];
  for (const [template, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const operation = `${method.toUpperCase()} ${template}`;
      const pathOf = (override?: [string, string]) =>
        template.replace(/\{(\w+)\}/g, (_m, name: string) =>
          override?.[0] === name ? encode(override[1]) : encode(String(valid[name] ?? "1")),
        );
      const bodySchema = op.requestBody?.content["application/json"]?.schema;
      const validBody = () =>
        bodySchema
          ? Object.fromEntries(Object.entries(bodySchema.properties ?? {}).map(([name, s]) => [name, validValue(name, s)]))
          : undefined;
      const bodyOf = (fields?: Record<string, unknown>) => (fields ? Buffer.from(JSON.stringify(fields)) : undefined);

      for (const [pattern, make] of PATTERNS) {
        for (const [name, schema] of Object.entries(bodySchema?.properties ?? {})) {
          if (!isText(schema)) continue;
          const value = make(filler(BODY_ROOM, jsonSize));
          list.push({
            operation,
            where: "body",
            field: name,
            pattern,
            request: () => ({ method, path: pathOf(), body: bodyOf({ ...validBody(), [name]: value }) }),
          });
        }
        for (const param of op.parameters) {
          if (!isText(param.schema)) continue;
          const value = make(filler(URL_ROOM, urlSize));
          const request =
            param.in === "path"
              ? () => ({ method, path: pathOf([param.name, value]), body: bodyOf(validBody()) })
              : () => ({ method, path: `${pathOf()}?${param.name}=${encode(value)}`, body: bodyOf(validBody()) });
          list.push({ operation, where: param.in, field: param.name, pattern, request });
        }
      }
    }
  }
  return list;
}

describe("worst-case strings in every text field", () => {
  it(`answers each with a 2xx or 4xx in under ${LIMIT_MS} ms (best of two tries; CPU time when the machine is busy)`, async () => {
    const all = cases();
    const operations = new Set(all.map((c) => c.operation));
    // Every operation that takes any text (body, query or path) is covered.
    const withText = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(
          ([, op]) =>
            op.parameters.some((p) => isText(p.schema)) ||
            Object.values(op.requestBody?.content["application/json"]?.schema.properties ?? {}).some(isText),
        )
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect([...operations].sort()).toEqual(withText.sort());

    const failures: string[] = [];
    const timings: number[] = [];
    for (const c of all) {
      const label = `${c.operation} ${c.where} "${c.field}" = ${c.pattern}`;
      let best = Infinity;
      let last: Awaited<ReturnType<typeof send>> | undefined;
      for (let attempt = 0; attempt < 2 && best >= LIMIT_MS; attempt++) {
        const { method, path, body } = c.request();
        last = await send(method, path, body);
        best = Math.min(best, last.ms);
      }
      timings.push(best);
      const status = last!.status;
      if (best >= LIMIT_MS)
        failures.push(`${label}: ${Math.round(best)} ms (wall ${Math.round(last!.wallMs)} ms; -> ${status} ${last!.text.slice(0, 120)})`);
      if (status >= 500 || status < 200 || (status >= 300 && status < 400))
        failures.push(`${label}: status ${status} ${last!.text.slice(0, 200)}`);
      try {
        const { method, path } = c.request();
        checker.check(method.toLowerCase(), path, {
          status,
          type: last!.type,
          body: last!.type === "application/json" ? JSON.parse(last!.text) : last!.text,
        });
      } catch (err) {
        failures.push(`${label}: ${(err as Error).message.split("\n")[0]!.slice(-300)}`);
      }
    }
    timings.sort((a, b) => a - b);
    console.log(
      `worst-case input: ${all.length} cases over ${operations.size} operations; median ${timings[timings.length >> 1]!.toFixed(1)} ms, ` +
        `slowest ${timings[timings.length - 1]!.toFixed(1)} ms`,
    );
    expect(failures).toEqual([]);
  }, 300_000);
});
