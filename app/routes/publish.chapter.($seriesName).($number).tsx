import { type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import {
  CHAPTER_CONTENT_MAX,
  CHAPTER_DESCRIPTION_MAX,
  CHAPTER_NUMBER_MAX,
  CHAPTER_TITLE_MAX,
  ChapterEditBody,
  NewChapterBody,
} from "../../server/rules/chapter.ts";
import { chapterPath, seriesPath } from "../lib/urls.ts";
import { chapterLabel } from "../components/chapter-card.tsx";
import { SelectField } from "../components/field.tsx";
import { Notice } from "../components/notice.tsx";
import { MarkdownEditor } from "../components/publish/markdown-editor.tsx";
import { PageManager } from "../components/publish/page-manager.tsx";
import { PublishForm } from "../components/publish/publish-form.tsx";
import { GuidelineList, PublishLayout, RefusalPage } from "../components/publish/publish-layout.tsx";
import { TextField } from "../components/publish/text-field.tsx";
import { ApiError } from "../lib/api.server.ts";
import { formText, formValues } from "../lib/forms.ts";
import { positiveId } from "../lib/ids.ts";
import { attempt, NOT_FOUND, readFailure } from "../lib/load.server.ts";
import { failure, invalid, markdownTabAnswer, publisher, readPublishForm, refusal, saveFailure, success } from "../lib/publish.server.ts";
import type { FormResult, PageRef } from "../lib/publish.ts";
import { describeUploadFailure } from "../lib/uploads.ts";
import publishStyles from "../styles/publish.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: publishStyles }];

export const meta: MetaFunction = ({ params }) => [{ title: `${params.number ? "Edit chapter" : "New chapter"} · Inkwell` }];

const TEXT_FIELDS = ["series", "number", "title", "description", "content"] as const;

/**
 * /publish/chapter publishes a chapter in one of the artist's series (`?series=` or
 * /publish/chapter/{series} preselects it); /publish/chapter/{series}/{number} edits one, for
 * the series' author only. Any letter case.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { session, api } = await publisher(request, context);
  if (params.seriesName !== undefined && params.number !== undefined) {
    const number = positiveId(params.number);
    const chapter = number === null ? NOT_FOUND : await attempt(api.chapter(params.seriesName, number));
    if (!chapter.ok) {
      const failed = readFailure(chapter, "Chapter not found", "Failed to load chapter");
      return refusal(failed.status, "Edit chapter", failed.message);
    }
    const c = chapter.value;
    if (c.authorId !== session.user.id) {
      return refusal(403, "You can't edit this chapter", `Only the author of ${c.seriesName}, @${c.authorName}, can edit its chapters.`);
    }
    const pages = c.pages.map((p) => ({ imageId: p.imageId }));
    return {
      chapter: {
        seriesName: c.seriesName,
        number: c.number,
        title: c.title,
        description: c.description,
        content: c.content,
        coverId: c.coverId,
        pages,
      },
      series: null,
      chosen: c.seriesName,
    };
  }
  const created = await attempt(api.createdSeries(session.user.id));
  if (!created.ok) return refusal(502, "New chapter", "Failed to load series");
  const wanted = (params.seriesName ?? new URL(request.url).searchParams.get("series") ?? "").toLowerCase();
  const series = created.value.map((s) => ({ id: s.id, name: s.name, next: (s.latestChapter?.number ?? 0) + 1 }));
  const chosen = series.find((s) => s.name.toLowerCase() === wanted)?.name ?? (series.length === 1 ? series[0]!.name : "");
  return { chapter: null, series, chosen };
}

/** The pages as the form leaves them: kept ids in order, minus the removed, plus the new uploads. */
function pagesOf(form: FormData, uploaded: { ok: boolean; image?: { id: number; fileName: string } }[]): PageRef[] {
  const removed = new Set(form.getAll("removePage").map(String));
  const kept = form
    .getAll("pages")
    .map(String)
    .filter((id) => !removed.has(id))
    .map((id) => positiveId(id))
    .filter((id): id is number => id !== null)
    .map((imageId) => ({ imageId }));
  const added = uploaded.flatMap((u) => (u.ok && u.image ? [{ imageId: u.image.id, fileName: u.image.fileName }] : []));
  return [...kept, ...added];
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { api } = await publisher(request, context);
  const editing = params.seriesName !== undefined && params.number !== undefined;
  const number = editing ? positiveId(params.number) : null;
  const read = await readPublishForm(request, context, api, ["pageFiles"]);
  const values = formValues(read.form, TEXT_FIELDS);
  const uploads = read.uploads.pageFiles ?? [];
  const pages = pagesOf(read.form, uploads);
  const pageIds = pages.map((p) => p.imageId);
  const coverRaw = positiveId(read.form.get("coverId"));
  const extraCover = positiveId(read.form.get("extraCover"));
  // The chosen cover, if it is still a page (or the cover kept from before); else the first page.
  const coverId = coverRaw !== null && (pageIds.includes(coverRaw) || coverRaw === extraCover) ? coverRaw : null;
  const uploadErrors = uploads.flatMap((u) => (u.ok ? [] : [describeUploadFailure(u, context.config.uploadMaxBytes)]));
  const kept = { pages, coverId, uploadErrors };

  const tab = markdownTabAnswer(read.form, values, context, kept);
  if (tab) return tab;
  if (uploadErrors.length > 0) {
    const count = uploadErrors.length;
    return failure(
      values,
      {},
      `${count === 1 ? "One file was" : `${count} files were`} not uploaded. The other pages are kept: check the list, then save again.`,
      kept,
    );
  }

  const seriesName = editing ? params.seriesName! : values.series;
  if (!seriesName) return failure(values, { series: "Please choose a series" }, null, kept);
  const text = { title: values.title, description: values.description, content: values.content };
  let parsed;
  if (editing) {
    // Unchanged pages and cover are not sent: the chapter keeps them (and any cover not among the pages).
    const original = formText(read.form, "originalPages");
    const originalCover = positiveId(read.form.get("originalCover"));
    const pagesChanged = pageIds.join(",") !== original;
    const chosenCover = coverId ?? null;
    parsed = ChapterEditBody.safeParse({
      ...text,
      ...(pagesChanged ? { pages: pageIds } : {}),
      ...(chosenCover !== originalCover || pagesChanged ? { coverId: chosenCover } : {}),
    });
  } else {
    const n = values.number.trim();
    parsed = NewChapterBody.safeParse({
      ...text,
      pages: pageIds,
      coverId: coverId ?? undefined,
      number: n === "" ? undefined : /^[0-9]+$/.test(n) ? Number(n) : n,
    });
  }
  if (!parsed.success) return invalid(values, parsed.error, kept);
  try {
    if (editing && number === null) throw new ApiError(404, "Chapter not found");
    const chapter =
      editing && number !== null
        ? await api.updateChapter(seriesName, number, parsed.data)
        : await api.publishChapter(seriesName, parsed.data as Parameters<typeof api.publishChapter>[1]);
    return success(
      editing ? "Chapter updated successfully!" : "Chapter published successfully!",
      chapterPath(chapter.seriesName, chapter.number),
    );
  } catch (err) {
    return saveFailure("chapter", editing, err, values, kept);
  }
}

const GUIDELINES = [
  "Upload every page of the chapter at once: JPEG, PNG, WebP or GIF, at most 10 MB each, up to 500 pages.",
  "Pages are read top to bottom (or one at a time) in the order shown. Name files 01, 02... and they arrive in order; drag or use the arrows to fix it.",
  "For a vertical strip, export pages 800 to 1600 px wide. Readers get a size that fits their screen.",
  "The cover is shown on the series page and on Home. It defaults to the first page.",
  "The title is shown as “Chapter N: title”. Notes (Markdown) appear after the last page.",
  "Publish only your own work, or clearly credited work you have the right to share.",
];

export default function ChapterForm() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  if ("refusal" in loaded) return <RefusalPage refusal={loaded.refusal} />;
  const { chapter, series, chosen } = loaded;
  const editing = chapter !== null;
  const failed = result && !result.ok ? result : null;
  const values: Record<string, string> = failed
    ? failed.values
    : { series: chosen, number: "", title: chapter?.title ?? "", description: chapter?.description ?? "", content: chapter?.content ?? "" };
  const pages = failed?.pages ?? chapter?.pages ?? [];
  const coverId = failed ? (failed.coverId ?? null) : (chapter?.coverId ?? null);
  // Editing a chapter whose cover is its first page shows "first page"; a cover that is no page is offered to keep.
  const firstPage = chapter?.pages[0]?.imageId ?? null;
  const extraCover = chapter?.coverId && !chapter.pages.some((p) => p.imageId === chapter.coverId) ? chapter.coverId : null;
  const shownCover = !failed && editing && coverId === firstPage ? null : coverId;
  const chosenSeries = series?.find((s) => s.name === values.series);

  if (!editing && series && series.length === 0) {
    return (
      <PublishLayout
        eyebrow="New chapter"
        title="Publish a chapter"
        intro="Chapters belong to a series."
        guidelines={<GuidelineList items={GUIDELINES} />}
      >
        <Notice>
          You have no series yet. <Link to="/publish/series">Create a series</Link> first, then publish its chapters here.
        </Notice>
      </PublishLayout>
    );
  }

  return (
    <PublishLayout
      eyebrow={editing ? "Edit chapter" : "New chapter"}
      title={editing ? `Edit ${chapterLabel(chapter)}` : "Publish a chapter"}
      intro={
        editing
          ? `In ${chapter.seriesName}. Pages you do not change are kept.`
          : "Upload the pages, put them in order, pick a cover, then give the chapter a title."
      }
      guidelines={<GuidelineList items={GUIDELINES} />}
    >
      <PublishForm
        className="chapter-form"
        result={result}
        check={(form) => {
          const v = formValues(form, TEXT_FIELDS);
          const ids = form.getAll("pages").map(Number);
          const text = { title: v.title, description: v.description, content: v.content };
          return editing ? ChapterEditBody.safeParse({ ...text, pages: ids }) : NewChapterBody.safeParse({ ...text, pages: ids });
        }}
        submitLabel={editing ? "Save changes" : "Publish chapter"}
        savingLabel={editing ? "Saving..." : "Publishing..."}
        cancelTo={editing ? chapterPath(chapter.seriesName, chapter.number) : chosen ? seriesPath(chosen) : "/publish"}
      >
        {({ errors, setBusy }) => (
          <>
            {editing ? (
              <>
                <p className="publish-form__context">
                  Series: <Link to={seriesPath(chapter.seriesName)}>{chapter.seriesName}</Link> · Chapter {chapter.number}
                </p>
                <input type="hidden" name="originalPages" value={chapter.pages.map((p) => p.imageId).join(",")} />
                <input type="hidden" name="originalCover" value={chapter.coverId ?? ""} />
                {extraCover ? <input type="hidden" name="extraCover" value={extraCover} /> : null}
              </>
            ) : (
              <div className="publish-form__row">
                <SelectField
                  label="Series"
                  name="series"
                  defaultValue={values.series}
                  error={errors.series}
                  placeholder="Choose one of your series…"
                  options={(series ?? []).map((s) => ({ key: s.id, value: s.name, label: s.name }))}
                />
                <div className={`field field--narrow${errors.number ? " field--invalid" : ""}`}>
                  <label htmlFor="field-number">
                    Number <span className="field__optional">(optional)</span>
                  </label>
                  <input
                    id="field-number"
                    name="number"
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={CHAPTER_NUMBER_MAX}
                    defaultValue={values.number}
                    placeholder={chosenSeries ? String(chosenSeries.next) : "next"}
                    aria-invalid={errors.number ? true : undefined}
                    aria-describedby="field-number-hint"
                  />
                  <p id="field-number-hint" className="field__hint">
                    {errors.number ? <span className="field__error">{errors.number}</span> : "Empty: the next number."}
                  </p>
                </div>
              </div>
            )}
            <PageManager
              initialPages={pages}
              coverId={shownCover}
              extraCover={extraCover}
              uploadErrors={failed?.uploadErrors}
              error={errors.pages ?? errors.coverId}
              onBusyChange={setBusy}
            />
            <TextField
              label="Chapter title"
              name="title"
              max={CHAPTER_TITLE_MAX}
              defaultValue={values.title}
              error={errors.title}
              required
              placeholder="e.g. The Night Market"
            />
            <TextField
              label="Description"
              name="description"
              max={CHAPTER_DESCRIPTION_MAX}
              defaultValue={values.description}
              error={errors.description}
              multiline
              rows={2}
              hint="A line or two shown on the series page."
            />
            <MarkdownEditor
              label="Notes"
              name="content"
              max={CHAPTER_CONTENT_MAX}
              defaultValue={values.content}
              error={errors.content}
              rows={6}
              hint="Optional, in Markdown: shown after the last page."
              initialTab={failed?.preview ? "preview" : "write"}
              previewHtml={failed?.previewHtml}
            />
          </>
        )}
      </PublishForm>
    </PublishLayout>
  );
}
