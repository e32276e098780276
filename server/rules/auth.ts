import { z } from "zod";
import { hasLongMarkRun, text } from "./text.ts";

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
const PASSWORD_MIN = 6;
const PASSWORD_MAX_BYTES = 72; // bcrypt reads no further

const utf8Length = (s: string) => new TextEncoder().encode(s).length;

export const username = z
  .string({ error: "Username is required" })
  .min(1, "Username is required")
  .refine((s) => s.length >= USERNAME_MIN, "Username must be at least 3 characters")
  .refine((s) => !/\s/.test(s), "Username cannot contain spaces")
  .refine((s) => /^[A-Za-z0-9_]*$/.test(s), "Username can only contain letters, numbers and underscores")
  .refine((s) => s.length <= USERNAME_MAX, "Username must be at most 30 characters");

export const password = z
  .string({ error: "Password is required" })
  .min(1, "Password is required")
  .refine((s) => s.length >= PASSWORD_MIN, "Password must be at least 6 characters")
  .refine((s) => utf8Length(s) <= PASSWORD_MAX_BYTES, "Password must be at most 72 bytes");

const EMAIL_MAX = 254;
const INVALID_EMAIL = "Please enter a valid email address";

// Deliberately simple, like the browser's own check: something@domain.tld, no spaces, and no invisible
// characters (controls such as NUL, format marks such as RTL overrides, lone surrogates). Written so it
// cannot backtrack: the domain's labels hold no dot, so each dot ends exactly one label.
const EMAIL = /^[^\s@\p{C}]+@[^\s@\p{C}.]+(?:\.[^\s@\p{C}.]+)+$/u;

export const email = z
  .string({ error: INVALID_EMAIL })
  // Length first (with room for spaces the trim removes), and nothing else runs on a longer string.
  .refine((s) => s.length <= EMAIL_MAX + 64, { message: INVALID_EMAIL, abort: true })
  .refine((s) => !hasLongMarkRun(s), { message: INVALID_EMAIL, abort: true })
  .trim()
  .normalize("NFC") // "é" composed or as e + accent is one address, so one account
  .refine((s) => s.length <= EMAIL_MAX && EMAIL.test(s), INVALID_EMAIL);

export const RegisterBody = z.object({ username, email, password });
export type RegisterInput = z.infer<typeof RegisterBody>;

export const LoginBody = z.object({
  username: text("Username", { required: "Username is required", max: [200, "Username is too long"], singleLine: true }),
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(1000, "Password is too long"),
  /** The device token an earlier login answered (docs/decisions/008): a device that signed in before. */
  deviceToken: z.string({ error: "deviceToken must be text" }).max(1000, "deviceToken is too long").optional(),
});
export type LoginInput = z.infer<typeof LoginBody>;

export const AccessToken = z.object({ accessToken: z.string() });

/** The current password, as a signed-in user confirms a change with it (checked against the hash, never its rules). */
export const currentPassword = z
  .string({ error: "Current password is required" })
  .min(1, "Current password is required")
  .max(1000, "Current password is too long");

export const PasswordChangeBody = z.object({
  currentPassword,
  /** The registration rules, in their words. */
  newPassword: password,
});
export type PasswordChangeInput = z.infer<typeof PasswordChangeBody>;

export const SignedIn = AccessToken.extend({
  deviceToken: z.string().describe("Send it back as `deviceToken` with later logins from this device"),
});

export const LoggedOut = z.object({ loggedOut: z.literal(true) });
