import type { Database } from "../db/database.ts";
import type { Caller } from "../http/auth.ts";
import { forbidden, notFound } from "../http/errors.ts";
import { wakeJobRunners } from "../jobs/job-runner.ts";
import { mayDeleteChapter, mayDeleteHub, mayDeletePost, mayDeleteSeries } from "../rules/permissions.ts";
import type { Deleted } from "../rules/deletion.ts";
import { createDeletionQueries } from "./deletion.queries.ts";

type Actor = Pick<Caller, "id" | "isAdmin">;

/**
 * Deleting a post, a chapter, a series or a hub with everything inside it (CONTRACT.md 12): who may is decided in the
 * deletion's transaction, on the row it locks; the unused images go after the commit (the "image-release" job).
 */
export function createDeletionService(db: Database) {
  const deletion = createDeletionQueries(db);
  // The job deletes the released images' files: this instance's runner starts at once.
  const afterCommit = (released: boolean) => {
    if (released) wakeJobRunners(db);
  };

  return {
    async deletePost(id: number, actor: Actor): Promise<Deleted> {
      afterCommit(
        await deletion.deletePost(id, actor.id, (post) => {
          if (!post) throw notFound("Post not found");
          const hub = { authorId: post.hubAuthorId, actorIsModerator: post.actorIsModerator === 1 };
          if (!mayDeletePost(actor, post, hub)) throw forbidden("Only the author, the hub's moderators and admins can delete this post");
        }),
      );
      return { type: "post", id, deleted: true };
    },

    async deleteChapter(series: { id: number }, number: number, actor: Actor): Promise<Deleted> {
      let id = 0;
      afterCommit(
        await deletion.deleteChapter(series.id, number, (chapter) => {
          if (!chapter) throw notFound("Chapter not found");
          if (!mayDeleteChapter(actor, { authorId: chapter.seriesAuthorId }))
            throw forbidden("Only the series' author and admins can delete its chapters");
          id = chapter.id;
        }),
      );
      return { type: "chapter", id, deleted: true };
    },

    async deleteSeries(id: number, actor: Actor): Promise<Deleted> {
      afterCommit(
        await deletion.deleteSeries(id, (series) => {
          if (!series) throw notFound("No series found.");
          if (!mayDeleteSeries(actor, series)) throw forbidden("Only the series' author and admins can delete it");
        }),
      );
      return { type: "series", id, deleted: true };
    },

    async deleteHub(id: number, actor: Actor): Promise<Deleted> {
      afterCommit(
        await deletion.deleteHub(id, (hub) => {
          if (!hub) throw notFound("No hub found.");
          if (!mayDeleteHub(actor, hub)) throw forbidden("Only the hub's creator and admins can delete it");
        }),
      );
      return { type: "hub", id, deleted: true };
    },
  };
}
