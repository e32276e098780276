import { STATUS_CODES } from "node:http";
import type { Response } from "supertest";
import { expect } from "vitest";

/**
 * Asserts the contract's error body (docs/api.md §2): `{ status, error, message, errors? }` with the
 * response's own status, the standard reason phrase and, when given, the exact message.
 */
export function expectError(res: Response, status: number, message?: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.type).toBe("application/json");
  expect(res.body).toMatchObject({ status, error: STATUS_CODES[status] });
  expect(typeof res.body.message).toBe("string");
  expect(res.body.message.length).toBeGreaterThan(0);
  if (message !== undefined) expect(res.body.message).toBe(message);
}

/** A 400 whose `errors` list names the field (or an item of it, `pages.0`) with the given message. */
export function expectFieldError(res: Response, field: string, message?: string): void {
  expectError(res, 400);
  expect(Array.isArray(res.body.errors), JSON.stringify(res.body)).toBe(true);
  const entry = (res.body.errors as { field: string; message: string }[]).find((e) => e.field === field || e.field.startsWith(`${field}.`));
  expect(entry, `no error for field "${field}" in ${JSON.stringify(res.body.errors)}`).toBeDefined();
  if (message !== undefined) expect(entry!.message).toBe(message);
}

/** A 400 whose message is the field's own message, with `{ field, message }` in its `errors` list. */
export function expectFieldErrorAsMessage(res: Response, field: string, message: string): void {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ status: 400, error: "Bad Request", message });
  expect(res.body.errors).toContainEqual({ field, message });
}
