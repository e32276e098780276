import { data, redirect } from "@remix-run/node";
import type { Api } from "./api.server.ts";
import { ApiError, apiFor } from "./api.server.ts";
import type { WebContext } from "./context.ts";
import { plural } from "./format.ts";
import { attempt, readFailure } from "./load.server.ts";
import { requireUser } from "./session.server.ts";
import { chapterPath, hubPath, postPath, seriesPath } from "./urls.ts";
import { deletedNoticeParam, type DeletedKind } from "./deletion.ts";

/** What the confirmation step shows: the thing, what goes with it, and where to go back to or after. */
export interface DeletionSubject {
  kind: DeletedKind;
  title: string;
  /** "This deletes the hub, its 3 posts and their comments." */
  consequence: string;
  /** Back to the thing. */
  cancelTo: string;
  /** Where the thing lived, with the notice. */
  doneTo: string;
  remove: (api: Api) => Promise<unknown>;
}

/** Which thing a confirmation URL names: /delete/{post|series|hub}/{id}, /delete/chapter/{series}/{number}. */
export type DeletionRef = { kind: "post" | "series" | "hub"; id: number } | { kind: "chapter"; seriesName: string; number: number };

const withNotice = (path: string, kind: DeletedKind) => `${path}?${deletedNoticeParam}=${kind}`;

/** A hub or a series: it goes with its posts or chapters, and the browser lands on the list of all of them. */
function withContents(
  kind: "hub" | "series",
  thing: { name: string },
  contents: string,
  path: string,
  remove: DeletionSubject["remove"],
): DeletionSubject {
  return {
    kind,
    title: thing.name,
    consequence: `This deletes the ${kind}, its ${contents} and their comments.`,
    cancelTo: path,
    doneTo: withNotice(kind === "hub" ? "/hubs" : "/series", kind),
    remove,
  };
}

async function subjectOf(api: Api, ref: DeletionRef): Promise<DeletionSubject> {
  switch (ref.kind) {
    case "post": {
      const post = await api.postById(ref.id);
      return {
        kind: "post",
        title: post.title,
        consequence: `This deletes the post and its ${plural(post.commentCount, "comment")}.`,
        cancelTo: postPath(post.hubName, post.id),
        doneTo: withNotice(hubPath(post.hubName), "post"),
        remove: (a) => a.deletePost(post.id),
      };
    }
    case "hub": {
      const hub = await api.hubById(ref.id);
      return withContents("hub", hub, plural(hub.postCount, "post"), hubPath(hub.name), (a) => a.deleteHub(hub.id));
    }
    case "series": {
      const series = await api.seriesById(ref.id);
      const chapters = plural(series.chapterCount, "chapter");
      return withContents("series", series, chapters, seriesPath(series.name), (a) => a.deleteSeries(series.id));
    }
    case "chapter": {
      const chapter = await api.chapter(ref.seriesName, ref.number);
      return {
        kind: "chapter",
        title: `Chapter ${chapter.number}: ${chapter.title}`,
        consequence: `This deletes the chapter, its ${plural(chapter.pageCount, "page")} and its ${plural(chapter.commentCount, "comment")}.`,
        cancelTo: chapterPath(chapter.seriesName, chapter.number),
        doneTo: withNotice(seriesPath(chapter.seriesName), "chapter"),
        remove: (a) => a.deleteChapter(chapter.seriesName, chapter.number),
      };
    }
  }
}

const NOT_FOUND: Record<DeletedKind, string> = {
  post: "Post not found",
  chapter: "Chapter not found",
  series: "Series not found",
  hub: "Hub not found",
};

/** The confirmation step's data (signed-in only): the thing and what goes with it, or why it cannot be shown. */
export async function deletionLoader(request: Request, context: WebContext, ref: DeletionRef | null) {
  const session = await requireUser(request, context);
  if (ref === null) throw data(null, { status: 404 });
  const subject = await attempt(subjectOf(apiFor(request, context, session), ref));
  if (!subject.ok) {
    const failed = readFailure(subject, NOT_FOUND[ref.kind], "Failed to load it");
    return data({ subject: null, error: failed.message }, { status: failed.status });
  }
  const { remove: _remove, ...shown } = subject.value;
  return { subject: shown, error: null };
}

/** The confirmed deletion: to where the thing lived, with a notice; a refusal (403) or a failure is shown on the step. */
export async function deletionAction(request: Request, context: WebContext, ref: DeletionRef | null) {
  const session = await requireUser(request, context);
  if (ref === null) throw data(null, { status: 404 });
  const api = apiFor(request, context, session);
  try {
    const subject = await subjectOf(api, ref);
    await subject.remove(api);
    return redirect(subject.doneTo, 303);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const message =
      err.status === 403 ? "You may not delete this." : err.status === 404 ? NOT_FOUND[ref.kind] : "The deletion failed. Try again.";
    return data({ error: message }, { status: err.status === 403 || err.status === 404 ? err.status : 502 });
  }
}
