-- A repeated follow or join tells the series' author or hub's creator once (issue 27): whether this follower or
-- member told them before is looked up by subject and actor, so the subject-only indexes gain the actor.
DROP INDEX "Notification_seriesId_idx";
DROP INDEX "Notification_hubId_idx";
CREATE INDEX "Notification_seriesId_actorId_idx" ON "Notification"("seriesId", "actorId");
CREATE INDEX "Notification_hubId_actorId_idx" ON "Notification"("hubId", "actorId");
