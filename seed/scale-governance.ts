import { IMAGE_USE_COLUMNS } from "./image-uses.ts";
import { Random } from "./random.ts";
import { DAY, HOUR, type ScaleContext } from "./scale-context.ts";
import { prepare } from "./sqlite-statement.ts";

/**
 * Governance data of the large benchmark set (seed/scale.ts, issue 14), written last with a random source of its own,
 * so every earlier row stays as it was: the bench's admin, hub moderator and blocker accounts, added moderators, the
 * big hub's bans, reports (most resolved, each resolution logged), the hub and site mod logs, blocks, and the image
 * uses of the published images (the rows `useImages` writes in the app). Sized from the counts like the rest.
 */

/** The bench's accounts (every seeded user shares the password): an admin, an added moderator of the big hub, a blocker. */
export const BENCH_ADMIN = "bench_admin";
export const BENCH_MODERATOR = "bench_moderator";
export const BENCH_BLOCKER = "bench_blocker";

/** Hubs the bench moderator moderates: the big one and the next busiest. */
const MODERATED_HUBS = 5;
/** Most reports are dealt with; this share is still open. */
const OPEN_SHARE = 0.15;
const REASONS = ["spam", "harassment", "copyright", "sexual", "violence", "other"] as const;
const NOTES = ["", "", "Same link posted in every thread.", "Traced from my page.", "Rude to a new member.", "Please check this one."];
const LOG_REASONS = ["Spam", "Off-topic", "Harassment", "Reposted art without credit", "Resolved after a chat", "Appeal accepted"];

export interface GovernanceCounts {
  reports: number;
  /** Mod log entries of the big hub, and of the whole site (the big hub's included). */
  bigHubModLog: number;
  modLog: number;
  bigHubBans: number;
  /** The bench blocker's blocks (the cap is 1,000). */
  blocks: number;
}

/** The governance rows a set gets: about 5,000 reports, 4,000 entries in the big hub's log and 400 bans at the benchmark's size. */
export function governanceCounts(c: { users: number; posts: number; bigHubPosts: number }): GovernanceCounts {
  const bigHubModLog = Math.round(c.bigHubPosts / 50);
  return {
    reports: Math.round(c.posts / 200),
    bigHubModLog,
    modLog: Math.max(bigHubModLog, Math.round(c.posts / 100)),
    bigHubBans: Math.round(c.users / 25),
    blocks: Math.min(1000, Math.max(1, Math.round(c.users / 50))),
  };
}

export interface WrittenGovernance {
  accounts: { admin: number; moderator: number; blocker: number };
  reports: number;
  openReports: number;
  modLog: number;
  bigHubModLog: number;
  bans: number;
  blocks: number;
  imageUses: number;
}

interface LogEntry {
  hubId: number | null;
  action: string;
  moderatorId: number | null;
  subjectType: string;
  subjectId: number;
  subjectTitle: string;
  reason: string;
  createdAt: number;
}

/** Writes the governance rows after every other phase (the big post is left alone: nothing of it is removed). */
export function writeGovernance(ctx: ScaleContext, passwordHash: string, bigPostId: number | undefined): WrittenGovernance {
  const { sqlite, sql, now, counts, first, userId } = ctx;
  const rnd = new Random("scale:governance");
  const g = governanceCounts(counts);
  const bigHub = first.hub;
  const demo = userId(0);
  const recent = (days: number) => now - Math.floor(rnd.next() * days * DAY) - HOUR;

  // The accounts, after the readers (no earlier id moves).
  const base = ctx.users + ctx.readers;
  const accounts = { admin: userId(base), moderator: userId(base + 1), blocker: userId(base + 2) };
  [BENCH_ADMIN, BENCH_MODERATOR, BENCH_BLOCKER].forEach((name, k) => {
    sql.user.run(userId(base + k), name, name, `${name}@example.com`, `${name}@example.com`, passwordHash, ctx.start + DAY, null, null);
    ctx.bulk.row();
    ctx.rows.users++;
  });
  sqlite.prepare('UPDATE "User" SET "isAdmin" = 1 WHERE "id" = ?').run(accounts.admin);
  const special = new Set([demo, ...Object.values(accounts)]);
  if (ctx.users < 2) return { accounts, reports: 0, openReports: 0, modLog: 0, bigHubModLog: 0, bans: 0, blocks: 0, imageUses: 0 };

  const q = {
    hub: prepare<[number], { authorId: number; name: string }>(sqlite, 'SELECT "authorId", "name" FROM "Hub" WHERE "id" = ?'),
    post: prepare<[number], { authorId: number; hubId: number; title: string }>(
      sqlite,
      'SELECT "authorId", "hubId", "title" FROM "Post" WHERE "id" = ?',
    ),
    comment: prepare<[number], { authorId: number | null; postId: number | null; chapterId: number | null; content: string }>(
      sqlite,
      'SELECT "authorId", "postId", "chapterId", "content" FROM "Comment" WHERE "id" = ? AND "deletedAt" IS NULL',
    ),
    chapter: prepare<[number], { authorId: number; seriesId: number; title: string }>(
      sqlite,
      'SELECT "authorId", "seriesId", "title" FROM "Chapter" WHERE "id" = ?',
    ),
    series: prepare<[number], { authorId: number; name: string }>(sqlite, 'SELECT "authorId", "name" FROM "Series" WHERE "id" = ?'),
    username: prepare<[number], { username: string }>(sqlite, 'SELECT "username" FROM "User" WHERE "id" = ?'),
  };
  const name = (id: number) => q.username.get(id)?.username ?? "";
  const log: LogEntry[] = [];

  // Added moderators: the bench moderator in the busiest hubs, and two members of the big hub.
  const moderated = [
    bigHub,
    ...prepare<[number, number], { id: number }>(
      sqlite,
      'SELECT "id" FROM "Hub" WHERE "id" != ? AND "postCount" > 0 ORDER BY "postCount" DESC, "id" LIMIT ?',
    )
      .all(bigHub, MODERATED_HUBS - 1)
      .map((h) => h.id),
  ];
  const addModerator = prepare(
    sqlite,
    'INSERT OR IGNORE INTO "HubModerator" ("hubId", "userId", "addedById", "createdAt") VALUES (?, ?, ?, ?)',
  );
  const bigHubMembers = prepare<[number, number], { userId: number }>(
    sqlite,
    'SELECT "userId" FROM "Membership" WHERE "hubId" = ? AND "userId" != ? ORDER BY "userId"',
  )
    .all(bigHub, demo)
    .map((m) => m.userId);
  const modsOf = new Map<number, number[]>();
  const added = (hubId: number, user: number) => {
    const hub = q.hub.get(hubId)!;
    const at = recent(400);
    addModerator.run(hubId, user, hub.authorId, at);
    modsOf.set(hubId, [...(modsOf.get(hubId) ?? []), user]);
    log.push({
      hubId,
      action: "moderator-added",
      moderatorId: hub.authorId,
      subjectType: "user",
      subjectId: user,
      subjectTitle: name(user),
      reason: "",
      createdAt: at,
    });
  };
  for (const hubId of moderated) added(hubId, accounts.moderator);
  for (const user of rnd.sample(bigHubMembers, Math.min(2, bigHubMembers.length))) added(bigHub, user);
  const moderatorOf = (hubId: number) => {
    const mods = modsOf.get(hubId);
    return mods && rnd.chance(0.7) ? rnd.pick(mods) : q.hub.get(hubId)!.authorId;
  };

  // The big hub's bans: users who are not its members (so no author of its posts), a few ended, some with an end.
  const members = new Set(bigHubMembers);
  const banCandidates = [];
  for (let i = 1; i < ctx.users; i++) if (!members.has(userId(i)) && !special.has(userId(i))) banCandidates.push(userId(i));
  const banned = rnd.sample(banCandidates, Math.min(g.bigHubBans, banCandidates.length));
  const ban = prepare(
    sqlite,
    'INSERT INTO "HubBan" ("hubId", "userId", "reason", "expiresAt", "byId", "createdAt") VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const user of banned) {
    const at = recent(700);
    const by = moderatorOf(bigHub);
    const reason = rnd.pick(LOG_REASONS);
    const expiresAt = rnd.chance(0.3) ? at + rnd.int(1, 90) * DAY : null;
    ban.run(bigHub, user, reason, expiresAt, by, at);
    log.push({
      hubId: bigHub,
      action: "banned",
      moderatorId: by,
      subjectType: "user",
      subjectId: user,
      subjectTitle: name(user),
      reason,
      createdAt: at,
    });
  }
  ctx.bulk.row(banned.length);

  // Reports, one per subject (so resolving one resolves only it), by users other than the subject's owner.
  const insertReport = prepare(
    sqlite,
    `INSERT INTO "Report" ("reporterId", "subjectType", "subjectId", "reason", "note", "status", "hubId", "seriesId", "createdAt",
       "resolvedAt", "resolvedById", "resolution", "resolutionReason") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const removeComment = prepare(sqlite, 'UPDATE "Comment" SET "removedAt" = ?, "removedReason" = ?, "removedById" = ? WHERE "id" = ?');
  const chapterPostHub = prepare<[number], { hubId: number }>(sqlite, 'SELECT "hubId" FROM "Post" WHERE "id" = ?');
  const seen = new Set<string>();
  let written = 0;
  let open = 0;
  for (let attempt = 0; written < g.reports && attempt < g.reports * 4; attempt++) {
    const kind = rnd.next();
    let subject:
      { type: string; id: number; owner: number | null; hubId: number | null; seriesId: number | null; title: string } | undefined;
    if (kind < 0.5 && counts.posts > 0) {
      const id = first.post + rnd.int(0, counts.posts - 1);
      const p = q.post.get(id)!;
      subject = { type: "post", id, owner: p.authorId, hubId: p.hubId, seriesId: null, title: p.title };
    } else if (kind < 0.8 && ctx.rows.comments > 0) {
      const id = first.comment + rnd.int(0, ctx.rows.comments - 1);
      const c = q.comment.get(id);
      if (!c) continue;
      const onPost = c.postId !== null;
      subject = {
        type: "comment",
        id,
        owner: c.authorId,
        hubId: onPost ? (chapterPostHub.get(c.postId!)?.hubId ?? null) : null,
        seriesId: onPost ? null : (q.chapter.get(c.chapterId!)?.seriesId ?? null),
        title: c.content.slice(0, 80),
      };
    } else if (kind < 0.9) {
      const id = userId(rnd.int(1, ctx.users - 1));
      subject = { type: "user", id, owner: id, hubId: null, seriesId: null, title: name(id) };
    } else if (kind < 0.95 && counts.chapters > 0) {
      const id = first.chapter + rnd.int(0, counts.chapters - 1);
      const c = q.chapter.get(id)!;
      subject = { type: "chapter", id, owner: c.authorId, hubId: null, seriesId: null, title: c.title };
    } else if (counts.hubs > 1) {
      const id = first.hub + rnd.int(1, counts.hubs - 1);
      const h = q.hub.get(id)!;
      subject = { type: "hub", id, owner: h.authorId, hubId: null, seriesId: null, title: h.name };
    }
    if (!subject || seen.has(`${subject.type}:${subject.id}`)) continue;
    const reporter = userId(rnd.int(1, ctx.users - 1));
    if (reporter === subject.owner || special.has(subject.id) || special.has(reporter)) continue;
    seen.add(`${subject.type}:${subject.id}`);
    const createdAt = recent(700);
    const reason = rnd.pick(REASONS);
    const note = rnd.pick(NOTES);
    if (rnd.chance(OPEN_SHARE)) {
      insertReport.run(
        reporter,
        subject.type,
        subject.id,
        reason,
        note,
        "open",
        subject.hubId,
        subject.seriesId,
        createdAt,
        null,
        null,
        null,
        null,
      );
      open++;
    } else {
      const resolvedAt = Math.min(now - HOUR, createdAt + rnd.int(1, 120) * HOUR);
      // The queue the report is in decides who resolves it: the hub's moderators, the series' author, else an admin.
      const resolver =
        subject.hubId !== null
          ? moderatorOf(subject.hubId)
          : subject.seriesId !== null
            ? q.series.get(subject.seriesId)!.authorId
            : accounts.admin;
      // Removals only of comments (not on the big post): removed posts refuse the mixed load's likes.
      const removes =
        subject.type === "comment" && rnd.chance(0.25) && !(bigPostId !== undefined && q.comment.get(subject.id)?.postId === bigPostId);
      const resolutionReason = rnd.pick(LOG_REASONS);
      insertReport.run(
        reporter,
        subject.type,
        subject.id,
        reason,
        note,
        "resolved",
        subject.hubId,
        subject.seriesId,
        createdAt,
        resolvedAt,
        resolver,
        removes ? "remove" : "dismiss",
        resolutionReason,
      );
      if (removes) removeComment.run(resolvedAt, resolutionReason, resolver, subject.id);
      log.push({
        hubId: subject.type === "hub" ? subject.id : subject.hubId,
        action: removes ? "removed" : "report-dismissed",
        moderatorId: resolver,
        subjectType: subject.type,
        subjectId: subject.id,
        // As the API logs: a post's, comment's or chapter's text is never copied (docs/api.md "Bans, suspensions and the mod log").
        subjectTitle: ["post", "comment", "chapter"].includes(subject.type) ? "" : subject.title,
        reason: resolutionReason,
        createdAt: resolvedAt,
      });
    }
    written++;
    ctx.bulk.row();
  }

  // The rest of the logs: in the big hub, posts removed and restored and bans lifted; elsewhere the same in other hubs
  // and suspensions lifted (site entries). Pairs, so the state the log describes is the state of the rows.
  const pair = (
    hubId: number | null,
    moderatorId: number,
    subjectType: string,
    subjectId: number,
    title: string,
    actions: [string, string],
  ) => {
    const at = recent(700);
    log.push({
      hubId,
      action: actions[0],
      moderatorId,
      subjectType,
      subjectId,
      subjectTitle: title,
      reason: rnd.pick(LOG_REASONS),
      createdAt: at,
    });
    const later = Math.min(now - 1, at + rnd.int(1, 72) * HOUR);
    log.push({
      hubId,
      action: actions[1],
      moderatorId,
      subjectType,
      subjectId,
      subjectTitle: title,
      reason: rnd.pick(LOG_REASONS),
      createdAt: later,
    });
  };
  const inBigHub = () => log.filter((e) => e.hubId === bigHub).length;
  for (let n = inBigHub(); n + 1 < g.bigHubModLog && counts.bigHubPosts > 0; n += 2) {
    const by = moderatorOf(bigHub);
    if (rnd.chance(0.6) || banCandidates.length === 0) {
      const id = first.post + rnd.int(0, counts.bigHubPosts - 1);
      if (id === bigPostId) continue;
      pair(bigHub, by, "post", id, "", ["removed", "restored"]);
    } else {
      const user = rnd.pick(banCandidates);
      pair(bigHub, by, "user", user, name(user), ["banned", "unbanned"]);
    }
  }
  while (log.length + 1 < g.modLog) {
    if (rnd.chance(0.3) || counts.posts === counts.bigHubPosts) {
      const user = userId(rnd.int(1, ctx.users - 1));
      if (special.has(user)) continue;
      pair(null, accounts.admin, "user", user, name(user), ["suspended", "unsuspended"]);
    } else {
      const id = first.post + counts.bigHubPosts + rnd.int(0, counts.posts - counts.bigHubPosts - 1);
      const p = q.post.get(id)!;
      pair(p.hubId, moderatorOf(p.hubId), "post", id, "", ["removed", "restored"]);
    }
  }
  log.sort((a, b) => a.createdAt - b.createdAt);
  const insertLog = prepare(
    sqlite,
    `INSERT INTO "ModLogEntry" ("hubId", "action", "moderatorId", "subjectType", "subjectId", "subjectTitle", "reason", "createdAt")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const e of log) {
    insertLog.run(e.hubId, e.action, e.moderatorId, e.subjectType, e.subjectId, e.subjectTitle, e.reason, e.createdAt);
    ctx.bulk.row();
  }

  // Blocks: the bench blocker blocks a quarter of its list among the big hub's newest posters (so its lists hide
  // something on page 1) and the rest anywhere; one user in a hundred outside the big hub blocks a few people.
  const insertBlock = prepare(sqlite, 'INSERT OR IGNORE INTO "Block" ("userId", "blockedId", "createdAt") VALUES (?, ?, ?)');
  const setBlockCount = prepare(
    sqlite,
    'UPDATE "User" SET "blockCount" = (SELECT COUNT(*) FROM "Block" WHERE "userId" = ?) WHERE "id" = ?',
  );
  const newestPosters = prepare<[number], { authorId: number }>(
    sqlite,
    'SELECT DISTINCT "authorId" FROM (SELECT "authorId" FROM "Post" WHERE "hubId" = ? ORDER BY "date" DESC LIMIT 200)',
  )
    .all(bigHub)
    .map((r) => r.authorId)
    .filter((id) => !special.has(id));
  const blockedByBlocker = new Set(rnd.sample(newestPosters, Math.min(newestPosters.length, Math.ceil(g.blocks / 4))));
  for (let tries = 0; blockedByBlocker.size < g.blocks && tries < g.blocks * 10; tries++) {
    const user = userId(rnd.int(1, ctx.users - 1));
    if (!special.has(user)) blockedByBlocker.add(user);
  }
  let blocks = 0;
  for (const blocked of blockedByBlocker) blocks += insertBlock.run(accounts.blocker, blocked, recent(500)).changes;
  setBlockCount.run(accounts.blocker, accounts.blocker);
  for (let i = 1; i < ctx.users; i += 100) {
    const blocker = userId(i + rnd.int(0, Math.min(99, ctx.users - 1 - i)));
    if (members.has(blocker) || special.has(blocker)) continue;
    for (let k = rnd.int(1, 5); k > 0; k--) {
      const blocked = userId(rnd.int(1, ctx.users - 1));
      if (blocked !== blocker && !special.has(blocked)) blocks += insertBlock.run(blocker, blocked, recent(500)).changes;
    }
    setBlockCount.run(blocker, blocker);
  }
  ctx.bulk.row(blocks);

  // Image uses of what is published (the deleting migration's structured backfill; the set embeds no images in text).
  let imageUses = 0;
  for (const [type, table, column, id] of IMAGE_USE_COLUMNS) {
    imageUses += sqlite
      .prepare(`INSERT OR IGNORE INTO "ImageUse" SELECT '${type}', "${id}", "${column}" FROM "${table}" WHERE "${column}" IS NOT NULL`)
      .run().changes;
  }
  ctx.bulk.row(imageUses);

  return {
    accounts,
    reports: written,
    openReports: open,
    modLog: log.length,
    bigHubModLog: inBigHub(),
    bans: banned.length,
    blocks,
    imageUses,
  };
}
