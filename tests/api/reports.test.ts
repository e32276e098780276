// Reports and the moderation queue (docs/api.md "Reports", docs/decisions/018-governance.md "Reports"): reporting every kind
// of subject, idempotence, validation, the throttle; who sees which queue; resolving by dismissing or removing, every
// open report on the subject at once, with one mod log entry, in one transaction.
import { describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { setUpSharedTestApi, startTestApi, type TestApi, type TestUser } from "../helpers/api.ts";
import { addComment, newChapter } from "../helpers/comments.ts";
import { expectError, expectFieldError } from "../helpers/expect-error.ts";
import { createHub, createPost, hubPath, joinHub } from "../helpers/fixtures.ts";

// alice creates hubs (bob is an added moderator of each), erin writes series, carol and dave read and report.
let api: TestApi, alice: TestUser, bob: TestUser, carol: TestUser, dave: TestUser, erin: TestUser, root: TestUser;
setUpSharedTestApi(
  ["alice", "bob", "carol", "dave", "erin"],
  async (started, users) => {
    api = started;
    [alice, bob, carol, dave, erin] = users;
    root = await api.register("Site_Root");
  },
  { adminUsernames: ["site_root"], reportRatePerHour: 0 },
);

type Subject = { type: "post" | "comment" | "chapter" | "series" | "hub" | "user"; id: number };
interface ReportBody {
  id: number;
  subject: Subject & { title: string | null; url: string | null; hubName: string | null; seriesName: string | null; removed: boolean };
  reason: string;
  note: string;
  reporter: { id: number; username: string } | null;
  status: "open" | "resolved";
  openReports: number;
  resolution: "dismiss" | "remove" | null;
  resolutionReason: string | null;
  resolvedBy: { id: number; username: string } | null;
  resolvedAt: string | null;
}

const report = (user: TestUser | undefined, body: Record<string, unknown>) => {
  const req = api.request.post("/reports");
  return (user ? req.set(user.auth) : req).send(body);
};
const reportOk = async (user: TestUser, subject: Subject, reason = "spam", note?: string) => {
  const res = await report(user, { subject, reason, ...(note === undefined ? {} : { note }) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as ReportBody;
};
const queue = async (user: TestUser, status = "open") => {
  const res = await api.request.get(`/reports?status=${status}&per_page=1000`).set(user.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.content as ReportBody[];
};
const queueIds = async (user: TestUser, status = "open") => (await queue(user, status)).map((r) => r.id);
const resolve = (user: TestUser | undefined, id: number, body: Record<string, unknown>) => {
  const req = api.request.post(`/reports/${id}/resolve`);
  return (user ? req.set(user.auth) : req).send(body);
};
const logOf = (subject: Subject) =>
  api.db.kysely
    .selectFrom("ModLogEntry")
    .select(["hubId", "action", "moderatorId", "subjectTitle", "reason"])
    .where("subjectType", "=", subject.type)
    .where("subjectId", "=", subject.id)
    .where("action", "in", ["report-dismissed", "removed"])
    .orderBy("id")
    .execute();

/** Alice's hub with bob as an added moderator, carol's post in it and dave's comment on the post. */
async function hubScene() {
  const hub = await createHub(api, alice);
  expect((await api.request.put(`/hubs/${hub.id}/moderators/${bob.id}`).set(alice.auth)).status).toBe(200);
  await joinHub(api, carol, hub.id);
  const post = await createPost(api, carol, hub.id, { title: "Carol's post" });
  const postPath = `${hubPath(hub.name)}/${post.id}`;
  const comment = await addComment(api, dave, postPath, "Dave says something rude here");
  return { hub, post, postPath, comment };
}

/** Erin's series with one chapter and carol's comment on it. */
async function seriesScene() {
  const chapter = await newChapter(api, erin);
  const comment = await addComment(api, carol, chapter.path, "Carol comments on the chapter");
  const series = await api.request.get(chapter.seriesPath);
  return { chapter, comment, series: series.body as { id: number; name: string } };
}

describe("POST /reports", () => {
  it("reports each kind of subject, answering 201 with the subject's title and web path", async () => {
    const { hub, post, comment } = await hubScene();
    const { chapter, comment: chapterComment, series } = await seriesScene();
    const enc = encodeURIComponent;
    const cases: [Subject, Partial<ReportBody["subject"]>][] = [
      [
        { type: "post", id: post.id },
        { title: "Carol's post", url: `/hubs/${enc(hub.name)}/${post.id}`, hubName: hub.name },
      ],
      [
        { type: "comment", id: comment.id },
        { title: "Dave says something rude here", url: `/hubs/${enc(hub.name)}/${post.id}#comment-${comment.id}`, hubName: hub.name },
      ],
      [
        { type: "comment", id: chapterComment.id },
        { url: `/series/${enc(series.name)}/1#comment-${chapterComment.id}`, seriesName: series.name, hubName: null },
      ],
      [
        { type: "chapter", id: chapter.id },
        { title: `${series.name} – Chapter 1: One`, url: `/series/${enc(series.name)}/1` },
      ],
      [
        { type: "series", id: series.id },
        { title: series.name, url: `/series/${enc(series.name)}` },
      ],
      [
        { type: "hub", id: hub.id },
        { title: hub.name, url: `/hubs/${enc(hub.name)}` },
      ],
      [
        { type: "user", id: alice.id },
        { title: "alice", url: "/user/alice" },
      ],
    ];
    for (const [subject, expected] of cases) {
      const body = await reportOk(
        bob.id === subject.id && subject.type === "user" ? carol : root,
        subject,
        "harassment",
        "See for yourself",
      );
      expect(body).toMatchObject({
        subject: { ...subject, ...expected, removed: false },
        reason: "harassment",
        note: "See for yourself",
        reporter: { id: root.id, username: "Site_Root" },
        status: "open",
        openReports: 1,
        resolution: null,
        resolvedBy: null,
      });
    }
  });

  it("copies the queue's hub (posts, their comments) or series (comments on chapters) into the row", async () => {
    const { hub, post, comment } = await hubScene();
    const { comment: chapterComment, series, chapter } = await seriesScene();
    const rows = async (id: number) =>
      api.db.kysely.selectFrom("Report").select(["hubId", "seriesId", "reporterId"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(await rows((await reportOk(erin, { type: "post", id: post.id })).id)).toEqual({
      hubId: hub.id,
      seriesId: null,
      reporterId: erin.id,
    });
    expect(await rows((await reportOk(erin, { type: "comment", id: comment.id })).id)).toMatchObject({ hubId: hub.id, seriesId: null });
    expect(await rows((await reportOk(dave, { type: "comment", id: chapterComment.id })).id)).toMatchObject({
      hubId: null,
      seriesId: series.id,
    });
    expect(await rows((await reportOk(dave, { type: "chapter", id: chapter.id })).id)).toMatchObject({ hubId: null, seriesId: null });
    expect(await rows((await reportOk(erin, { type: "hub", id: hub.id })).id)).toMatchObject({ hubId: null, seriesId: null });
  });

  it("is idempotent while the report is open: 200 with the first report, unchanged; after it is resolved a new one is made", async () => {
    const { post } = await hubScene();
    const first = await reportOk(erin, { type: "post", id: post.id }, "spam", "first");
    const again = await report(erin, { subject: { type: "post", id: post.id }, reason: "other", note: "second" });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.id, reason: "spam", note: "first", openReports: 1 });
    expect((await resolve(alice, first.id, { action: "dismiss", reason: "Fine" })).status).toBe(200);
    const later = await reportOk(erin, { type: "post", id: post.id }, "other");
    expect(later.id).not.toBe(first.id);
  });

  it("keeps one open report per reporter and subject under concurrent reports", async () => {
    const { post } = await hubScene();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => report(erin, { subject: { type: "post", id: post.id }, reason: "spam" })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
  });

  it("answers 404 for a subject that does not exist, and for a deleted comment's tombstone", async () => {
    const missing: [Subject["type"], string][] = [
      ["post", "Post not found"],
      ["comment", "Comment not found"],
      ["chapter", "Chapter not found"],
      ["series", "No series found."],
      ["hub", "No hub found."],
      ["user", "User not found"],
    ];
    for (const [type, message] of missing)
      expectError(await report(carol, { subject: { type, id: 2_000_000_000 }, reason: "spam" }), 404, message);
    const { postPath, comment } = await hubScene();
    await addComment(api, carol, postPath, "A reply keeps the tombstone", comment.id);
    expect((await api.request.delete(`/comments/${comment.id}`).set(dave.auth)).status).toBe(200);
    expectError(await report(erin, { subject: { type: "comment", id: comment.id }, reason: "spam" }), 404, "Comment not found");
  });

  it("refuses reporting yourself or your own work (400)", async () => {
    const { hub, post, comment } = await hubScene();
    const { chapter, series } = await seriesScene();
    const own: [TestUser, Subject][] = [
      [carol, { type: "post", id: post.id }],
      [dave, { type: "comment", id: comment.id }],
      [alice, { type: "hub", id: hub.id }],
      [erin, { type: "series", id: series.id }],
      [erin, { type: "chapter", id: chapter.id }],
      [carol, { type: "user", id: carol.id }],
    ];
    for (const [user, subject] of own) {
      expectError(await report(user, { subject, reason: "spam" }), 400, "You cannot report yourself or your own work");
    }
  });

  it("validates the body: subject type and id, reason, note length; 401 without a token", async () => {
    const { post } = await hubScene();
    const subject = { type: "post", id: post.id };
    expectError(await report(undefined, { subject, reason: "spam" }), 401);
    expectFieldError(await report(carol, { subject: { type: "image", id: 1 }, reason: "spam" }), "subject.type");
    expectFieldError(await report(carol, { subject: { type: "post", id: 0 }, reason: "spam" }), "subject.id");
    expectFieldError(await report(carol, { subject: { type: "post", id: "1" }, reason: "spam" }), "subject.id");
    expectFieldError(await report(carol, { reason: "spam" }), "subject");
    expectFieldError(
      await report(carol, { subject, reason: "boring" }),
      "reason",
      "Reason must be one of spam, harassment, copyright, sexual, violence, other",
    );
    expectFieldError(await report(carol, { subject }), "reason");
    expectFieldError(
      await report(carol, { subject, reason: "spam", note: "x".repeat(1001) }),
      "note",
      "Note must be at most 1000 characters",
    );
    expectFieldError(await report(carol, { subject, reason: "spam", note: 12 }), "note");
    expect(
      await api.db.kysely.selectFrom("Report").select("id").where("subjectType", "=", "post").where("subjectId", "=", post.id).execute(),
    ).toEqual([]);
    const ok = await reportOk(erin, subject as Subject, "other", `  ${"y".repeat(1000)}  `);
    expect(ok.note).toBe("y".repeat(1000));
  });
});

describe("the report throttle", () => {
  it("allows a user so many reports an hour, then answers 429 with Retry-After; others are not held", async () => {
    const limited = await startTestApi({ reportRatePerHour: 2 });
    try {
      const [a, b, c] = [await limited.register("thr_a"), await limited.register("thr_b"), await limited.register("thr_c")];
      const send = (user: TestUser, id: number) =>
        limited.request
          .post("/reports")
          .set(user.auth)
          .send({ subject: { type: "user", id }, reason: "spam" });
      expect((await send(a, b.id)).status).toBe(201);
      expect((await send(a, b.id)).status).toBe(200);
      const third = await send(a, c.id);
      expectError(third, 429);
      expect(Number(third.headers["retry-after"])).toBeGreaterThan(0);
      expect((await send(b, c.id)).status).toBe(201);
    } finally {
      await limited.close();
    }
  });
});

describe("GET /reports", () => {
  it("shows each moderator their queue: admins all; a hub's creator and added moderators its posts and comments; a series author comments on its chapters", async () => {
    const { hub, post, comment } = await hubScene();
    const { chapter, comment: chapterComment, series } = await seriesScene();
    const onPost = await reportOk(erin, { type: "post", id: post.id });
    const onComment = await reportOk(erin, { type: "comment", id: comment.id });
    const onChapterComment = await reportOk(dave, { type: "comment", id: chapterComment.id });
    const onChapter = await reportOk(dave, { type: "chapter", id: chapter.id });
    const onSeries = await reportOk(dave, { type: "series", id: series.id });
    const onHub = await reportOk(erin, { type: "hub", id: hub.id });
    const onUser = await reportOk(erin, { type: "user", id: dave.id });
    const mine = [onPost, onComment, onChapterComment, onChapter, onSeries, onHub, onUser].map((r) => r.id);

    const admin = await queueIds(root);
    for (const id of mine) expect(admin).toContain(id);
    for (const moderator of [alice, bob]) {
      const ids = (await queueIds(moderator)).filter((id) => mine.includes(id));
      expect(ids).toEqual([onComment.id, onPost.id]); // newest first
    }
    expect((await queueIds(erin)).filter((id) => mine.includes(id))).toEqual([onChapterComment.id]);
  });

  it("answers 403 to those who moderate nothing, 401 without a token, 400 for a bad status", async () => {
    const stranger = await api.register();
    expectError(
      await api.request.get("/reports").set(stranger.auth),
      403,
      "Only moderators, series authors and admins have a moderation queue",
    );
    expectError(await api.request.get("/reports"), 401);
    expectFieldError(await api.request.get("/reports?status=closed").set(root.auth), "status");
    // Creating a hub makes one its moderator: an empty queue, not a 403.
    await createHub(api, stranger);
    const res = await api.request.get("/reports").set(stranger.auth);
    expect(res.body).toMatchObject({ content: [], totalElements: 0, totalPages: 1, page: 1 });
  });

  it("pages newest first with totals, and counts the open reports on each report's subject", async () => {
    const { post, comment } = await hubScene();
    const made: number[] = [];
    for (const user of [dave, erin, root]) made.push((await reportOk(user, { type: "post", id: post.id })).id);
    for (const user of [carol, erin]) made.push((await reportOk(user, { type: "comment", id: comment.id })).id);
    const all = await queue(alice);
    expect(all.slice(0, 5).map((r) => r.id)).toEqual([...made].reverse());
    expect(all.slice(0, 5).map((r) => r.openReports)).toEqual([2, 2, 3, 3, 3]);
    const first = await api.request.get("/reports?per_page=2").set(alice.auth);
    expect(first.body).toMatchObject({ page: 1, perPage: 2, totalElements: all.length, totalPages: Math.ceil(all.length / 2) });
    expect(first.body.content.map((r: ReportBody) => r.id)).toEqual(all.slice(0, 2).map((r) => r.id));
    const second = await api.request.get("/reports?per_page=2&page=2").set(alice.auth);
    expect(second.body.content.map((r: ReportBody) => r.id)).toEqual(all.slice(2, 4).map((r) => r.id));
  });
});

describe("POST /reports/{id}/resolve", () => {
  it("dismisses: every open report on the subject resolved, one report-dismissed entry in the hub's log", async () => {
    const { hub, comment } = await hubScene();
    const subject: Subject = { type: "comment", id: comment.id };
    const first = await reportOk(carol, subject, "harassment");
    const second = await reportOk(erin, subject, "spam");
    const res = await resolve(bob, first.id, { action: "dismiss", reason: "  Not harassment  " });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      resolvedReports: 2,
      report: {
        id: first.id,
        status: "resolved",
        resolution: "dismiss",
        resolutionReason: "Not harassment",
        resolvedBy: { id: bob.id, username: "bob" },
        openReports: 0,
      },
    });
    const resolved = (await queue(alice, "resolved")).filter((r) => r.id === first.id || r.id === second.id);
    expect(resolved.map((r) => [r.id, r.status, r.resolution])).toEqual([
      [second.id, "resolved", "dismiss"],
      [first.id, "resolved", "dismiss"],
    ]);
    expect((await queueIds(alice)).filter((id) => id === first.id || id === second.id)).toEqual([]);
    expect(await logOf(subject)).toEqual([
      {
        hubId: hub.id,
        action: "report-dismissed",
        moderatorId: bob.id,
        // A comment's words are not copied into the log (docs/api.md "Bans, suspensions and the mod log").
        subjectTitle: "",
        reason: "Not harassment",
      },
    ]);
    // The comment is untouched.
    expect(
      (await api.db.kysely.selectFrom("Comment").select("removedAt").where("id", "=", comment.id).executeTakeFirstOrThrow()).removedAt,
    ).toBeNull();
  });

  it("removes: the subject is removed with removal's one `removed` entry and every open report resolved", async () => {
    const { hub, comment } = await hubScene();
    const subject: Subject = { type: "comment", id: comment.id };
    const first = await reportOk(carol, subject);
    const second = await reportOk(erin, subject);
    const res = await resolve(alice, second.id, { action: "remove", reason: "Rude" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ resolvedReports: 2, report: { id: second.id, resolution: "remove", subject: { removed: true } } });
    const row = await api.db.kysely
      .selectFrom("Comment")
      .select(["removedAt", "removedReason", "removedById"])
      .where("id", "=", comment.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ removedReason: "Rude", removedById: alice.id });
    expect(await logOf(subject)).toEqual([{ hubId: hub.id, action: "removed", moderatorId: alice.id, subjectTitle: "", reason: "Rude" }]);
    const statuses = await api.db.kysely
      .selectFrom("Report")
      .select(["status", "resolution"])
      .where("id", "in", [first.id, second.id])
      .execute();
    expect(statuses).toEqual([
      { status: "resolved", resolution: "remove" },
      { status: "resolved", resolution: "remove" },
    ]);
  });

  it("lets a series author resolve reports on comments on their chapters, and admins anything", async () => {
    const { comment, chapter } = await seriesScene();
    const onComment = await reportOk(dave, { type: "comment", id: comment.id });
    expect((await resolve(erin, onComment.id, { action: "remove", reason: "Off topic" })).status).toBe(200);
    const onChapter = await reportOk(dave, { type: "chapter", id: chapter.id });
    expectError(await resolve(erin, onChapter.id, { action: "dismiss", reason: "Mine is fine" }), 403);
    expect((await resolve(root, onChapter.id, { action: "dismiss", reason: "Fine" })).status).toBe(200);
    expect(await logOf({ type: "chapter", id: chapter.id })).toMatchObject([
      { hubId: null, action: "report-dismissed", moderatorId: root.id },
    ]);
  });

  it("answers 403 to those who do not see the report, 404 for none, 409 once resolved, 401 without a token", async () => {
    const { hub, post } = await hubScene();
    const onPost = await reportOk(erin, { type: "post", id: post.id });
    const onHub = await reportOk(carol, { type: "hub", id: hub.id });
    expectError(await resolve(undefined, onPost.id, { action: "dismiss", reason: "x" }), 401);
    expectError(
      await resolve(dave, onPost.id, { action: "dismiss", reason: "x" }),
      403,
      "Only the moderators who see this report can resolve it",
    );
    expectError(await resolve(erin, onPost.id, { action: "dismiss", reason: "x" }), 403);
    // A hub's own reports are for admins, not its moderators.
    expectError(await resolve(alice, onHub.id, { action: "dismiss", reason: "x" }), 403);
    expectError(await resolve(root, 2_000_000_000, { action: "dismiss", reason: "x" }), 404, "Report not found");
    expect((await resolve(bob, onPost.id, { action: "dismiss", reason: "Fine" })).status).toBe(200);
    expectError(await resolve(alice, onPost.id, { action: "remove", reason: "Changed my mind" }), 409, "This report is already resolved");
    expect(await logOf({ type: "post", id: post.id })).toHaveLength(1);
  });

  it("validates the body: action and a required reason", async () => {
    const { post } = await hubScene();
    const onPost = await reportOk(erin, { type: "post", id: post.id });
    expectFieldError(await resolve(alice, onPost.id, { action: "ban", reason: "x" }), "action", "Action must be dismiss or remove");
    expectFieldError(await resolve(alice, onPost.id, { action: "dismiss" }), "reason", "A reason is required");
    expectFieldError(await resolve(alice, onPost.id, { action: "dismiss", reason: "   " }), "reason", "A reason is required");
    expectFieldError(await resolve(alice, onPost.id, { action: "dismiss", reason: "r".repeat(501) }), "reason");
    expectFieldError(await api.request.post("/reports/abc/resolve").set(alice.auth).send({ action: "dismiss", reason: "x" }), "id");
    expect((await queueIds(alice)).includes(onPost.id)).toBe(true);
  });

  it("does not remove a user (400: suspend instead) but dismisses a report on one", async () => {
    const target = await api.register();
    const onUser = await reportOk(carol, { type: "user", id: target.id });
    expectError(
      await resolve(root, onUser.id, { action: "remove", reason: "Troll" }),
      400,
      "A user cannot be removed: dismiss the report, and suspend the account if needed",
    );
    expect((await resolve(root, onUser.id, { action: "dismiss", reason: "Not a troll" })).body).toMatchObject({ resolvedReports: 1 });
    expect(await logOf({ type: "user", id: target.id })).toMatchObject([
      { hubId: null, action: "report-dismissed", subjectTitle: target.username },
    ]);
  });

  it("leaves the reports open when the removal fails: a deleted subject is 404, and can still be dismissed", async () => {
    const { post } = await hubScene();
    const onPost = await reportOk(erin, { type: "post", id: post.id });
    expect((await api.request.delete(`/hub-posts/${post.id}`).set(alice.auth)).status).toBe(200);
    expectError(await resolve(alice, onPost.id, { action: "remove", reason: "Spam" }), 404, "Post not found");
    const open = (await queue(alice)).find((r) => r.id === onPost.id);
    expect(open).toMatchObject({ status: "open", subject: { title: null, url: null } });
    expect((await resolve(alice, onPost.id, { action: "dismiss", reason: "Gone already" })).status).toBe(200);
    expect(await logOf({ type: "post", id: post.id })).toMatchObject([{ action: "report-dismissed", subjectTitle: "" }]);
  });
});

/** The export's account.json, read from the streamed zip. */
async function exportedAccount(user: TestUser): Promise<Record<string, unknown>> {
  const res = await api.request
    .get(`/user/${user.id}/export`)
    .set(user.auth)
    .buffer(true)
    .parse((stream, done) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => done(null, Buffer.concat(chunks)));
    });
  expect(res.status).toBe(200);
  const json = await new Promise<string>((resolve, reject) => {
    yauzl.fromBuffer(res.body as Buffer, { lazyEntries: true }, (err, file) => {
      if (err) return reject(err);
      file.on("entry", (entry: yauzl.Entry) => {
        if (entry.fileName !== "account.json") return file.readEntry();
        file.openReadStream(entry, (openErr, stream) => {
          if (openErr) return reject(openErr);
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        });
      });
      file.on("end", () => reject(new Error("no account.json")));
      file.readEntry();
    });
  });
  return JSON.parse(json) as Record<string, unknown>;
}

describe("the account export", () => {
  it("holds the reports the user made, oldest first, with how they ended (not who resolved them)", async () => {
    const user = await api.register();
    const { post, comment } = await hubScene();
    const onPost = await reportOk(user, { type: "post", id: post.id }, "copyright", "My drawing");
    const onComment = await reportOk(user, { type: "comment", id: comment.id }, "harassment");
    expect((await resolve(alice, onComment.id, { action: "dismiss", reason: "Fine" })).status).toBe(200);
    const account = await exportedAccount(user);
    expect(account.reports).toEqual([
      {
        id: onPost.id,
        subjectType: "post",
        subjectId: post.id,
        reason: "copyright",
        note: "My drawing",
        status: "open",
        createdAt: expect.any(String),
        resolution: null,
        resolvedAt: null,
      },
      {
        id: onComment.id,
        subjectType: "comment",
        subjectId: comment.id,
        reason: "harassment",
        note: "",
        status: "resolved",
        createdAt: expect.any(String),
        resolution: "dismiss",
        resolvedAt: expect.any(String),
      },
    ]);
  });
});
