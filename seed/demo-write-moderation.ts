import type { Executor } from "../server/db/prepared.ts";
import { DEMO_ADMIN, DEMO_HUB_MODERATOR, DEMO_RESOLVED_REPORT } from "./content/users.ts";
import { DAY, type DemoPlan } from "./demo-plan.ts";
import type { WrittenIds } from "./demo-write-discussion.ts";

/**
 * The demo's governance (docs/api.md §14), written after the discussion: a site admin; a moderator added to the demo
 * login's hub; and a report on a comment in that hub, resolved by the moderator. Each action with the mod log entry the
 * API writes for it, so the hub's public log has something to show.
 */
export async function writeDemoModeration(trx: Executor, plan: DemoPlan, ids: WrittenIds): Promise<void> {
  await trx.updateTable("User").set({ isAdmin: 1 }).where("id", "=", ids.user(DEMO_ADMIN)).execute();

  const hubId = ids.hubs.get(DEMO_HUB_MODERATOR.hub);
  const hubOwner = plan.hubs.find((h) => h.name === DEMO_HUB_MODERATOR.hub)?.owner;
  if (hubId === undefined || hubOwner === undefined) throw new Error(`Unknown demo hub ${DEMO_HUB_MODERATOR.hub}`);
  const addedAt = plan.now - DEMO_HUB_MODERATOR.addedDaysAgo * DAY;
  const moderatorId = ids.user(DEMO_HUB_MODERATOR.username);
  await trx
    .insertInto("HubModerator")
    .values({ hubId, userId: moderatorId, addedById: ids.user(hubOwner), createdAt: addedAt })
    .execute();
  await trx
    .insertInto("ModLogEntry")
    .values({
      hubId,
      action: "moderator-added",
      moderatorId: ids.user(hubOwner),
      subjectType: "user",
      subjectId: moderatorId,
      subjectTitle: DEMO_HUB_MODERATOR.username,
      createdAt: addedAt,
    })
    .execute();

  // The hub's oldest comment by someone other than its moderators, reported by the planned reporter.
  const reporterId = ids.user(DEMO_RESOLVED_REPORT.reporter);
  const comment = await trx
    .selectFrom("Comment as c")
    .innerJoin("Post as p", "p.id", "c.postId")
    .select(["c.id", "c.content", "c.createdAt"])
    .where("p.hubId", "=", hubId)
    .where("c.deletedAt", "is", null)
    .where("c.authorId", "not in", [moderatorId, ids.user(hubOwner), reporterId])
    .orderBy("c.id")
    .executeTakeFirst();
  if (!comment) throw new Error(`The demo has no comment in ${DEMO_HUB_MODERATOR.hub} to report`);
  const reportedAt = Math.max(comment.createdAt + DAY / 24, addedAt);
  const resolvedAt = reportedAt + DAY / 6;
  await trx
    .insertInto("Report")
    .values({
      reporterId,
      subjectType: "comment",
      subjectId: comment.id,
      reason: DEMO_RESOLVED_REPORT.reason,
      note: DEMO_RESOLVED_REPORT.note,
      status: "resolved",
      hubId,
      seriesId: null,
      createdAt: reportedAt,
      resolvedAt,
      resolvedById: moderatorId,
      resolution: "dismiss",
      resolutionReason: DEMO_RESOLVED_REPORT.resolutionReason,
    })
    .execute();
  await trx
    .insertInto("ModLogEntry")
    .values({
      hubId,
      action: "report-dismissed",
      moderatorId,
      subjectType: "comment",
      subjectId: comment.id,
      subjectTitle: "", // a comment's words are never copied into the log (docs/api.md "Bans, suspensions and the mod log")
      reason: DEMO_RESOLVED_REPORT.resolutionReason,
      createdAt: resolvedAt,
    })
    .execute();
}
