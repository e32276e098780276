import type { LoginInput, PasswordChangeInput, RegisterInput } from "../../server/rules/auth.ts";
import type { ChapterEditInput, ChapterOrder, NewChapterInput } from "../../server/rules/chapter.ts";
import type { CommentSort } from "../../server/rules/comment.ts";
import type { Deleted } from "../../server/rules/deletion.ts";
import type { HubEditInput, HubInput } from "../../server/rules/hub.ts";
import type { NewPostInput, PostEditInput, PostOrder } from "../../server/rules/post.ts";
import type {
  Chapter,
  ChapterSummary,
  Comment,
  CommentDeleted,
  FeedItem,
  FieldError,
  Hub,
  HubDetail,
  HubModerators,
  ImageMetadata,
  Notification,
  Page,
  Post,
  PostSummary,
  Series,
  SeriesDetail,
  TagCount,
  User,
} from "../../server/rules/api-responses.ts";
import type { RemovalState, RemovalSubject } from "../../server/rules/removal.ts";
import type { SeriesEditInput, SeriesInput } from "../../server/rules/series.ts";
import type { SitemapIndex, SitemapKind, SitemapPage } from "../../server/rules/sitemap.ts";
import type { UserEditInput } from "../../server/rules/user.ts";
import type { EmailVerified, VerificationSent } from "../../server/rules/email-verification.ts";
import type { EmailPreferences, Unsubscribed } from "../../server/rules/email-preferences.ts";
import type { WebContext } from "./context.ts";
import type { FieldErrors } from "./forms.ts";
import { sessionEnded, type Session } from "./session.server.ts";

/** A failed API call. `status` 0 means no response at all (network error). */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: FieldError[];
  constructor(status: number, message: string, errors: FieldError[] = []) {
    super(message);
    this.status = status;
    this.errors = errors;
    this.name = "ApiError";
  }
}

/** The API's per-field messages (400), keyed by field. */
export function apiFieldErrors(err: unknown): FieldErrors {
  const out: FieldErrors = {};
  if (err instanceof ApiError) for (const e of err.errors) out[e.field] ??= e.message;
  return out;
}

/** A query string; an array repeats its key (`tag=a&tag=b`). */
type Query = Record<string, string | number | string[] | undefined>;

export interface CallOptions {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  query?: Query;
  /** JSON, or a FormData sent as multipart (image uploads). */
  body?: unknown;
  /** How long the call may take; API_TIMEOUT_MS unless given. */
  timeoutMs?: number;
}

/** Uploads carry up to UPLOAD_MAX_BYTES: they get this many times API_TIMEOUT_MS. */
export const UPLOAD_TIMEOUT_FACTOR = 6;

export const TIMEOUT_MESSAGE = "The server took too long to answer. Please try again.";

/** What login and register answer: the access token and, from the API that issues them, a device token. */
export interface SignedIn {
  accessToken: string;
  deviceToken?: string;
}

/** What login answers instead for an account with TOTP on (docs/api.md "Second factors"). */
export interface SecondFactorRequired {
  secondFactorRequired: true;
  challenge: string;
}

const seg = (s: string | number) => encodeURIComponent(String(s));

/** What a transport answers: the part of fetch's Response that `call` reads. */
export interface ApiAnswer {
  status: number;
  statusText: string;
  ok: boolean;
  text(): Promise<string>;
}

/**
 * How a call reaches the API: fetch over HTTP to API_URL, or, when the API runs in the same process, a
 * dispatch into its app in memory (web/api-in-process.ts; docs/web.md §1). Either way it
 * rejects with the signal's reason when the signal fires. fetch is one.
 */
export type ApiTransport = (
  url: URL,
  init: { method: string; headers: Record<string, string>; body: string | undefined; signal: AbortSignal },
) => Promise<ApiAnswer>;

export interface ApiOptions {
  /** The session's bearer token, sent on every call when present (docs/web.md §1). */
  token?: string;
  /** Called on a 401 to a call that carried a token; what it throws ends the request (a redirect). */
  onUnauthorized?: () => Promise<never>;
  /** Aborts the calls when the browser goes away. */
  signal?: AbortSignal;
}

/** The typed client of the API, over `context.apiTransport` (HTTP unless given). Server-only: it holds the user's token. */
export function createApi(context: WebContext, options: ApiOptions = {}) {
  const base = context.config.apiUrl;
  const send: ApiTransport = context.apiTransport ?? fetch;

  async function call<T>(path: string, { method = "GET", query, body, timeoutMs }: CallOptions = {}, token = options.token): Promise<T> {
    const url = new URL(base + path);
    for (const [k, v] of Object.entries(query ?? {})) {
      if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, item);
      else if (v !== undefined && v !== "") url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = { Accept: "application/json" };
    if (token) headers.Authorization = `Bearer ${token}`;
    // The API trusts this from the web server (its TRUST_PROXY), so its limits count visitors.
    if (context.clientAddress) headers["X-Forwarded-For"] = context.clientAddress;
    const timeout = AbortSignal.timeout(timeoutMs ?? context.config.apiTimeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const failed = (err: unknown): never => {
      if (options.signal?.aborted) throw err;
      if (timeout.aborted) throw new ApiError(504, TIMEOUT_MESSAGE);
      throw new ApiError(0, "Network error. Please check your connection.");
    };
    const multipart = body instanceof FormData;
    if (body !== undefined && !multipart) headers["Content-Type"] = "application/json";
    let res: ApiAnswer;
    try {
      // Node's fetch keeps connections to the API alive between calls. Uploads (multipart) always take it.
      if (multipart) res = await fetch(url, { method, headers, body, signal });
      else res = await send(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
    } catch (err) {
      return failed(err);
    }
    if (res.status === 401 && token && options.onUnauthorized) await options.onUnauthorized();
    const text = await res.text().catch(failed);
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      // A proxy's HTML error page, say: handled below by the status.
    }
    if (!res.ok) {
      const e = (json ?? {}) as { message?: string; errors?: FieldError[] };
      throw new ApiError(res.status, e.message ?? res.statusText, Array.isArray(e.errors) ? e.errors : []);
    }
    return json as T;
  }

  /**
   * Public reads that every viewer sees alike (top hubs, top series): sent without the token, so
   * the API answers them from its response cache, which every write invalidates.
   */
  const publicRead = <T>(path: string, query?: Query) => call<T>(path, { query }, undefined);

  return {
    call,
    /** `deviceToken`: this browser's device cookie, if it has one (not throttled with others, OWASP device cookies). */
    login: (body: LoginInput & { deviceToken?: string }) => call<SignedIn | SecondFactorRequired>("/auth/login", { method: "POST", body }),
    /** The login's code step (docs/api.md "Second factors"): the challenge with a code or a recovery code. */
    loginSecondFactor: (body: { challenge: string; code?: string; recoveryCode?: string; deviceToken?: string }) =>
      call<SignedIn>("/auth/login/second-factor", { method: "POST", body }),
    setUpTotp: () => call<{ secret: string; otpauthUrl: string }>("/me/2fa/totp", { method: "POST" }),
    confirmTotp: (code: string) => call<{ recoveryCodes: string[] }>("/me/2fa/totp/confirm", { method: "POST", body: { code } }),
    turnOffTotp: (password: string) => call<{ totp: boolean }>("/me/2fa/totp", { method: "DELETE", body: { password } }),
    register: (body: RegisterInput) => call<SignedIn>("/auth/register", { method: "POST", body }),
    /** Revokes the token the client carries (POST /auth/logout). */
    logout: () => call<{ loggedOut: boolean }>("/auth/logout", { method: "POST" }),

    user: (username: string) => call<User>(`/user/${seg(username)}`),
    memberHubs: (userId: number) => call<Hub[]>(`/user/${userId}/member-hubs`),
    followedSeries: (userId: number) => call<Series[]>(`/user/${userId}/followed-series`),
    createdSeries: (userId: number) => call<Series[]>(`/user/${userId}/created-series`),
    createdHubs: (userId: number) => call<Hub[]>(`/user/${userId}/created-hubs`),
    setMembership: (userId: number, hubId: number, member: boolean) =>
      call<{ member: boolean; memberCount: number }>(`/user/${userId}/member-hubs/${hubId}`, { method: member ? "POST" : "DELETE" }),

    topHubs: (perPage: number) => publicRead<Page<Hub>>("/hubs/top", { per_page: perPage }),
    hubs: (page: number) => call<Page<Hub>>("/hubs", { query: { page, per_page: 10 } }),
    searchHubs: (name: string, page: number) => call<Page<Hub>>("/hubs/search", { query: { name, page, per_page: 10 } }),
    hub: (name: string) => call<HubDetail>(`/hubs/${seg(name)}`),
    // `includeBlocked`: the posts of people the viewer blocks too; otherwise `hidden` counts them (server/blocks).
    hubPosts: (hubName: string, order: PostOrder, page: number, includeBlocked = false, perPage = 10) =>
      call<Page<PostSummary> & { hidden?: number }>(`/hubs/${seg(hubName)}/posts/${order}`, {
        query: { page, size: perPage, includeBlocked: includeBlocked ? "true" : undefined },
      }),
    post: (hubName: string, postId: number) => call<Post>(`/hubs/${seg(hubName)}/${postId}`),
    setPostLike: (hubName: string, postId: number, liked: boolean) =>
      call<{ liked: boolean; likes: number }>(`/hubs/${seg(hubName)}/${postId}/like`, { method: liked ? "POST" : "DELETE" }),

    topSeries: (perPage: number) => publicRead<Page<Series>>("/series/top", { per_page: perPage }),
    // `filters`: tag (repeated), status, rating, sort (docs/api.md "Series metadata and browsing"; app/lib/series-meta.ts).
    seriesList: (page: number, filters: Query = {}) => call<Page<Series>>("/series", { query: { ...filters, page, per_page: 10 } }),
    searchSeries: (name: string, page: number, filters: Query = {}) =>
      call<Page<Series>>("/series/search", { query: { ...filters, name, page, per_page: 10 } }),
    tags: (page: number, perPage = 50) => call<Page<TagCount>>("/tags", { query: { page, per_page: perPage } }),
    series: (name: string) => call<SeriesDetail>(`/series/${seg(name)}`),
    seriesById: (id: number) => call<SeriesDetail>(`/series/id/${id}`),
    chapters: (seriesName: string, order: ChapterOrder, page: number, perPage = 10) =>
      call<Page<ChapterSummary>>(`/series/${seg(seriesName)}/chapters${order === "latest" ? "" : "/most-liked"}`, {
        query: { page, per_page: perPage },
      }),
    chapter: (seriesName: string, number: number) => call<Chapter>(`/series/${seg(seriesName)}/${number}`),
    setChapterLike: (seriesName: string, number: number, liked: boolean) =>
      call<{ liked: boolean; likes: number }>(`/series/${seg(seriesName)}/${number}/like`, { method: liked ? "POST" : "DELETE" }),
    setFollow: (userId: number, seriesId: number, following: boolean) =>
      call<{ following: boolean; followersCount: number }>(`/user/${userId}/followed-series/${seriesId}`, {
        method: following ? "POST" : "DELETE",
      }),

    userById: (id: number) => call<User>(`/user/id/${id}`),
    updateUser: (id: number, body: UserEditInput) => call<User>(`/user/${id}`, { method: "PUT", body }),
    /** Account settings (docs/api.md §12): the answer is the caller's new token; every other session ends. */
    changePassword: (id: number, body: PasswordChangeInput) =>
      call<{ accessToken: string }>(`/user/${id}/password`, { method: "PUT", body }),
    /** Ends every session of the caller, this one included. */
    logoutEverywhere: () => call<{ loggedOut: boolean }>("/auth/logout-all", { method: "POST" }),
    /** docs/api.md "Verified email addresses": the token of a link (no sign-in needed), and a new link for the caller. */
    verifyEmail: (token: string) => call<EmailVerified>("/auth/verify-email", { method: "POST", body: { token } }),
    resendVerification: () => call<VerificationSent>("/me/verify-email/resend", { method: "POST" }),
    /** docs/api.md "Notification mail": the caller's settings per kind, changing them, and a mail's one-click unsubscribe (no sign-in). */
    emailPreferences: () => call<EmailPreferences>("/me/email-preferences"),
    setEmailPreferences: (body: Partial<EmailPreferences>) => call<EmailPreferences>("/me/email-preferences", { method: "PUT", body }),
    unsubscribe: (token: string) => call<Unsubscribed>("/email-preferences/unsubscribe", { method: "POST", body: { token } }),
    /** docs/api.md "Password reset": a link by username or email (202 {} for every input), and a new password for its token. */
    requestPasswordReset: (login: string) => call<Record<string, never>>("/auth/password-reset", { method: "POST", body: { login } }),
    confirmPasswordReset: (body: { token: string; newPassword: string }) =>
      call<{ accessToken: string } | { secondFactorRequired: true; challenge: string }>("/auth/password-reset/confirm", {
        method: "POST",
        body,
      }),
    hubById: (id: number) => call<HubDetail>(`/hubs/id/${id}`),
    /** Hub moderators (docs/api.md §14): the list, and the creator's or an admin's changes to it. */
    hubModerators: (hubName: string) => call<HubModerators>(`/hubs/${seg(hubName)}/moderators`),
    setHubModerator: (hubId: number, userId: number, moderator: boolean) =>
      call<HubModerators>(`/hubs/${hubId}/moderators/${userId}`, { method: moderator ? "PUT" : "DELETE" }),
    postById: (id: number) => call<Post>(`/hub-posts/${id}`),

    createHub: (body: HubInput) => call<HubDetail>("/hubs", { method: "POST", body }),
    updateHub: (id: number, body: HubEditInput) => call<HubDetail>(`/hubs/${id}`, { method: "PUT", body }),
    createSeries: (body: SeriesInput) => call<SeriesDetail>("/series", { method: "POST", body }),
    updateSeries: (id: number, body: SeriesEditInput) => call<SeriesDetail>(`/series/${id}`, { method: "PUT", body }),
    createPost: (body: NewPostInput) => call<Post>("/hub-posts", { method: "POST", body }),
    updatePost: (id: number, body: PostEditInput) => call<Post>(`/hub-posts/${id}`, { method: "PUT", body }),
    publishChapter: (seriesName: string, body: NewChapterInput) =>
      call<Chapter>(`/series/${seg(seriesName)}/chapters`, { method: "POST", body }),
    updateChapter: (seriesName: string, number: number, body: ChapterEditInput) =>
      call<Chapter>(`/series/${seg(seriesName)}/${number}`, { method: "PUT", body }),

    /** Deleting (docs/api.md §15): the thing with everything inside it. */
    deletePost: (id: number) => call<Deleted>(`/hub-posts/${id}`, { method: "DELETE" }),
    deleteChapter: (seriesName: string, number: number) => call<Deleted>(`/series/${seg(seriesName)}/${number}`, { method: "DELETE" }),
    deleteSeries: (id: number) => call<Deleted>(`/series/${id}`, { method: "DELETE" }),
    deleteHub: (id: number) => call<Deleted>(`/hubs/${id}`, { method: "DELETE" }),
    /** Removal by moderators (docs/api.md "Removal"): the thing keeps its place; `restore` clears it. */
    setRemoved: (action: "remove" | "restore", subject: RemovalSubject, reason: string) =>
      call<RemovalState>(`/moderation/${action}`, { method: "POST", body: { subject, reason } }),
    /** The caller's account, with its password (docs/api.md "Deleting an account"). */
    deleteAccount: (id: number, password: string) => call<Deleted>(`/user/${id}`, { method: "DELETE", body: { password } }),

    /** Comments (docs/api.md §10): `place` is the post's or chapter's path, `/hubs/{hub}/{id}` or `/series/{name}/{n}`. */
    comments: (place: string, sort: CommentSort, page: number, perPage = 10, includeBlocked = false) =>
      call<Page<Comment> & { hidden?: number }>(`${place}/comments`, {
        query: { sort, page, per_page: perPage, includeBlocked: includeBlocked ? "true" : undefined },
      }),
    replies: (commentId: number, page: number, perPage: number, includeBlocked = false) =>
      call<Page<Comment> & { hidden?: number }>(`/comments/${commentId}/replies`, {
        query: { page, per_page: perPage, includeBlocked: includeBlocked ? "true" : undefined },
      }),
    addComment: (place: string, content: string, parentId?: number) =>
      call<Comment>(`${place}/comments`, { method: "POST", body: parentId === undefined ? { content } : { content, parentId } }),
    editComment: (id: number, content: string) => call<Comment>(`/comments/${id}`, { method: "PUT", body: { content } }),
    deleteComment: (id: number) => call<CommentDeleted>(`/comments/${id}`, { method: "DELETE" }),
    setCommentLike: (id: number, liked: boolean) =>
      call<{ liked: boolean; likes: number }>(`/comments/${id}/like`, { method: liked ? "POST" : "DELETE" }),

    /** Notifications and the following feed (docs/api.md §11), always the caller's. */
    notifications: (page: number, unreadOnly: boolean, perPage = 20) =>
      call<Page<Notification>>("/me/notifications", { query: { page, per_page: perPage, unread: unreadOnly ? "true" : undefined } }),
    unreadCount: () => call<{ count: number }>("/me/notifications/unread-count"),
    markRead: (body: { ids: number[] } | { all: true }) => call<{ count: number }>("/me/notifications/read", { method: "POST", body }),
    feed: (page: number, perPage = 10) => call<Page<FeedItem>>("/me/feed", { query: { page, per_page: perPage } }),
    /** The sitemap's pages and one page's things (docs/api.md "Sitemap"): the same for everyone, sent without the token. */
    sitemapIndex: () => publicRead<SitemapIndex>("/sitemap"),
    sitemapPage: (kind: SitemapKind, page: number) => publicRead<SitemapPage>(`/sitemap/${kind}`, { page }),

    imageMetadata: (id: number) => call<ImageMetadata>(`/images/metadata/${id}`),
    /** Forwards one file to POST /images (multipart field `file`). */
    uploadImage: (file: Blob, fileName: string) => {
      const form = new FormData();
      form.append("file", file, fileName);
      return call<ImageMetadata>("/images", { method: "POST", body: form, timeoutMs: context.config.apiTimeoutMs * UPLOAD_TIMEOUT_FACTOR });
    },
  };
}

export type Api = ReturnType<typeof createApi>;

/**
 * The client for one request: the session's token on every call, and a 401 ends the session
 * and sends the user to `/login?redirectTo=<here>` (docs/web.md §6).
 */
export function apiFor(request: Request, context: WebContext, session: Session | null): Api {
  return createApi(context, {
    token: session?.token,
    signal: request.signal,
    onUnauthorized: async () => {
      throw await sessionEnded(request, context);
    },
  });
}

/** Login failures in the words of docs/web.md §5. */
export function loginErrorMessage(err: unknown): string {
  if (!(err instanceof ApiError)) return "Login failed. Please try again.";
  if (err.status === 0) return "Network error. Please check your connection.";
  if (err.status === 401) return "Invalid credentials";
  if (err.status === 400) return "Please check your username and password";
  // A suspended account (docs/api.md "Bans, suspensions and the mod log"): "This account is suspended".
  if (err.status === 403 && err.message) return err.message;
  // Throttled ("Too many login attempts...") or timed out: the reason, in the API's or our words.
  if ((err.status === 429 || err.status === 504) && err.message) return err.message;
  return "Login failed. Please try again.";
}

/** Register failures in the words of docs/web.md §5; field errors come back separately. */
export function registerErrorMessage(err: unknown): string | null {
  if (!(err instanceof ApiError)) return "Registration failed";
  if (err.status === 0) return "Network error";
  if (err.status === 409) return "Username or email already exists";
  if (err.status === 400) return err.errors.length > 0 ? null : "Invalid registration data";
  if ((err.status === 429 || err.status === 504) && err.message) return err.message;
  return "Registration failed";
}
