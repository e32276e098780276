-- The mod logs no longer keep a copy of a post's, comment's or chapter's text (issue 27, docs/api.md "Bans,
-- suspensions and the mod log"): what moderators removed or the author deleted must not live on in a log. The
-- public log names such a subject by type and id; the admins' site log reads its current title. Entries written
-- before this held the text: blanked here. Names (users, hubs, series) stay.
UPDATE "ModLogEntry" SET "subjectTitle" = '' WHERE "subjectType" IN ('post', 'comment', 'chapter') AND "subjectTitle" <> '';
