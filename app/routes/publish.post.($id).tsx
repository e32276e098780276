import { type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import { NewPostBody, POST_CONTENT_MAX, POST_DESCRIPTION_MAX, POST_TITLE_MAX, PostEditBody } from "../../server/rules/post.ts";
import { hubPath, postPath } from "../lib/urls.ts";
import { SelectField } from "../components/field.tsx";
import { Notice } from "../components/notice.tsx";
import { MarkdownEditor } from "../components/publish/markdown-editor.tsx";
import { PublishForm } from "../components/publish/publish-form.tsx";
import { GuidelineList, PublishLayout, RefusalPage } from "../components/publish/publish-layout.tsx";
import { TextField } from "../components/publish/text-field.tsx";
import { ApiError } from "../lib/api.server.ts";
import { formValues } from "../lib/forms.ts";
import { positiveId } from "../lib/ids.ts";
import { attempt, NOT_FOUND, readFailure } from "../lib/load.server.ts";
import {
  invalid,
  markdownTabAnswer,
  publisher,
  readPublishForm,
  redirectIdQuery,
  refusal,
  saveFailure,
  success,
} from "../lib/publish.server.ts";
import type { FormResult } from "../lib/publish.ts";
import publishStyles from "../styles/publish.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: publishStyles }];

export const meta: MetaFunction = ({ params }) => [{ title: `${params.id ? "Edit post" : "New post"} · Inkwell` }];

const FIELDS = ["hubId", "title", "description", "content"] as const;

/**
 * /publish/post writes a post in one of the hubs the user joined (`?hubId=` preselects one);
 * /publish/post/{id} (or ?id=) edits a post, for its author only. Any letter case.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { session, api } = await publisher(request, context);
  redirectIdQuery(request);
  if (params.id !== undefined) {
    const id = positiveId(params.id);
    const post = id === null ? NOT_FOUND : await attempt(api.postById(id));
    if (!post.ok) {
      const failed = readFailure(post, "Post not found", "Failed to load post data");
      return refusal(failed.status, "Edit post", failed.message);
    }
    if (post.value.authorId !== session.user.id) {
      return refusal(403, "You can't edit this post", `Only its author, @${post.value.authorName}, can edit “${post.value.title}”.`);
    }
    const { id: postId, title, description, content, hubId, hubName } = post.value;
    return { post: { id: postId, title, description, content, hubId, hubName }, hubs: null, wanted: null };
  }
  const wantedId = positiveId(new URL(request.url).searchParams.get("hubId"));
  const [hubs, wanted] = await Promise.all([
    attempt(api.memberHubs(session.user.id)),
    wantedId === null ? null : attempt(api.hubById(wantedId)),
  ]);
  if (!hubs.ok) return refusal(502, "New post", "Failed to load hub information");
  return {
    post: null,
    hubs: hubs.value.map((h) => ({ id: h.id, name: h.name })),
    // A hub asked for in the link, to preselect, or to say that it must be joined first.
    wanted: wanted?.ok ? { id: wanted.value.id, name: wanted.value.name, member: hubs.value.some((h) => h.id === wanted.value.id) } : null,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { api } = await publisher(request, context);
  const editing = params.id !== undefined;
  const editId = editing ? positiveId(params.id) : null;
  const read = await readPublishForm(request, context, api, []);
  const values = formValues(read.form, FIELDS);
  const tab = markdownTabAnswer(read.form, values, context);
  if (tab) return tab;
  const { hubId, ...text } = values;
  const parsed = editing
    ? PostEditBody.safeParse(text)
    : NewPostBody.safeParse({ ...text, hubId: hubId === "" ? undefined : Number(hubId) });
  if (!parsed.success) return invalid(values, parsed.error);
  try {
    if (editing && editId === null) throw new ApiError(404, "Post not found");
    const post =
      editId !== null
        ? await api.updatePost(editId, parsed.data)
        : await api.createPost(parsed.data as Parameters<typeof api.createPost>[0]);
    return success(editing ? "Post updated successfully!" : "Post published successfully!", postPath(post.hubName, post.id));
  } catch (err) {
    return saveFailure("post", editing, err, values);
  }
}

const GUIDELINES = [
  "You can post in hubs you have joined. Join a hub from its page first.",
  "Give the post a clear title (5 to 200 characters) and an optional one-line description.",
  "Write in Markdown: **bold**, _italic_, `code`, # headings, [links](https://example.com) and code blocks. Use Preview to check it.",
  "Credit other artists when you share their work, and keep discussion kind.",
];

export default function PostForm() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  if ("refusal" in loaded) return <RefusalPage refusal={loaded.refusal} />;
  const { post, hubs, wanted } = loaded;
  const editing = post !== null;
  const values: Record<string, string> =
    result && !result.ok
      ? result.values
      : {
          hubId: String(post?.hubId ?? (wanted?.member ? wanted.id : hubs?.length === 1 ? hubs[0]!.id : "")),
          title: post?.title ?? "",
          description: post?.description ?? "",
          content: post?.content ?? "",
        };
  const preview = !!(result && !result.ok && result.preview);
  const noHubs = !editing && hubs !== null && hubs.length === 0;

  return (
    <PublishLayout
      eyebrow={editing ? "Edit post" : "New post"}
      title={editing ? "Edit post" : "Write a post"}
      intro={editing ? `In ${post.hubName}.` : "Share news, sketches, questions or contest entries with a hub."}
      guidelines={<GuidelineList items={GUIDELINES} />}
    >
      {wanted && !wanted.member ? (
        <p className="callout">
          You are not a member of <Link to={hubPath(wanted.name)}>{wanted.name}</Link> yet. Join it to post there.
        </p>
      ) : null}
      {noHubs ? (
        <Notice>
          You have not joined any hubs yet. <Link to="/hubs">Find a hub to join</Link>, then come back to post.
        </Notice>
      ) : (
        <PublishForm
          result={result}
          check={(form) => {
            const v = formValues(form, FIELDS);
            const { hubId, ...text } = v;
            return editing
              ? PostEditBody.safeParse(text)
              : NewPostBody.safeParse({ ...text, hubId: hubId === "" ? undefined : Number(hubId) });
          }}
          submitLabel={editing ? "Save changes" : "Publish post"}
          savingLabel={editing ? "Saving..." : "Publishing..."}
          cancelTo={editing ? postPath(post.hubName, post.id) : "/publish"}
        >
          {({ errors }) => (
            <>
              {editing ? (
                <p className="publish-form__context">
                  Hub: <Link to={hubPath(post.hubName)}>{post.hubName}</Link>
                </p>
              ) : (
                <SelectField
                  label="Hub"
                  name="hubId"
                  defaultValue={values.hubId}
                  error={errors.hubId}
                  placeholder="Choose a hub you joined…"
                  options={(hubs ?? []).map((h) => ({ key: h.id, value: h.id, label: h.name }))}
                />
              )}
              <TextField label="Title" name="title" max={POST_TITLE_MAX} defaultValue={values.title} error={errors.title} required />
              <TextField
                label="Description"
                name="description"
                max={POST_DESCRIPTION_MAX}
                defaultValue={values.description}
                error={errors.description}
                hint="One line shown on the hub's list of posts."
              />
              <MarkdownEditor
                label="Content"
                name="content"
                max={POST_CONTENT_MAX}
                defaultValue={values.content}
                error={errors.content}
                required
                initialTab={preview ? "preview" : "write"}
                previewHtml={result && !result.ok ? result.previewHtml : undefined}
              />
            </>
          )}
        </PublishForm>
      )}
    </PublishLayout>
  );
}
