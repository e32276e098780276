import { useEffect, useRef, useState } from "react";
import type { PageRef } from "../../lib/publish.ts";
import {
  ACCEPT_ATTRIBUTE,
  describeUploadFailure,
  ownImageUrl,
  precheckFile,
  UploadError,
  uploadWithProgress,
  type UploadHandle,
} from "../../lib/uploads.ts";
import { useHydrated } from "../../lib/use-hydrated.ts";

/** Uploads running at once: enough to keep the line busy, few enough to show steady progress. */
const PARALLEL_UPLOADS = 2;

type Status = "queued" | "uploading" | "ready" | "error";

interface PageItem {
  key: string;
  status: Status;
  imageId: number | null;
  fileName: string;
  progress: number;
  error?: string;
  /** A failure worth trying again (no connection, a server fault); a refused file is not. */
  retryable?: boolean;
  /** A local preview while (and after) the file uploads. */
  preview?: string;
}

let keySeq = 0;
const newKey = () => `p${++keySeq}`;

/** Files as an artist names them ("page-2.png" before "page-10.png"). */
const byName = (a: File, b: File) => a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: "base" });

function move<T>(list: T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return list;
  const next = list.slice();
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/**
 * A chapter's pages: upload many images at once (each with its progress, and a clear message
 * for a wrong type or a file too large), put them in order, remove some, pick the cover. The
 * order of the hidden `pages` inputs is the chapter's; `coverId` is the chosen cover ("" for the
 * first page). Without JavaScript it is a multiple file input (`pageFiles`, uploaded by the
 * action in file-name order), the pages so far with Remove boxes, and the cover radios.
 */
export function PageManager({
  initialPages,
  coverId,
  extraCover,
  uploadErrors = [],
  error,
  onBusyChange,
}: {
  initialPages: PageRef[];
  coverId: number | null;
  /** A cover that is not one of the pages (kept when editing unless another is picked). */
  extraCover?: number | null;
  uploadErrors?: string[];
  error?: string | null;
  onBusyChange?: (busy: boolean) => void;
}) {
  const hydrated = useHydrated();
  const [items, setItems] = useState<PageItem[]>(() =>
    initialPages.map((p) => ({ key: newKey(), status: "ready", imageId: p.imageId, fileName: p.fileName ?? "", progress: 1 })),
  );
  const [cover, setCover] = useState<string>(coverId ? String(coverId) : "");
  const [dropping, setDropping] = useState(false);
  const [dragged, setDragged] = useState<number | null>(null);
  const files = useRef(new Map<string, File>());
  const started = useRef(new Set<string>());
  const handles = useRef(new Map<string, UploadHandle>());
  const input = useRef<HTMLInputElement>(null);

  const update = (key: string, change: Partial<PageItem>) => setItems((list) => list.map((i) => (i.key === key ? { ...i, ...change } : i)));

  // Start queued uploads, a few at a time, in page order.
  useEffect(() => {
    const running = items.filter((i) => i.status === "uploading").length;
    const waiting = items.filter((i) => i.status === "queued" && !started.current.has(i.key));
    for (const item of waiting.slice(0, Math.max(0, PARALLEL_UPLOADS - running))) {
      const file = files.current.get(item.key);
      if (!file) continue;
      started.current.add(item.key);
      update(item.key, { status: "uploading", progress: 0 });
      const handle = uploadWithProgress(file, (progress) => update(item.key, { progress }));
      handles.current.set(item.key, handle);
      handle.promise
        .then(
          (image) => update(item.key, { status: "ready", imageId: image.id, progress: 1 }),
          (err: unknown) => {
            const failure = err instanceof UploadError ? err.failure : null;
            update(item.key, {
              status: "error",
              error: failure ? describeUploadFailure(failure) : `${file.name}: The upload failed. Please try again.`,
              retryable: !failure || failure.status === 0 || failure.status >= 500,
            });
          },
        )
        .finally(() => handles.current.delete(item.key));
    }
  }, [items]);

  // Tell the form while anything is still on its way.
  const busy = items.some((i) => i.status === "queued" || i.status === "uploading");
  const wasBusy = useRef(false);
  useEffect(() => {
    if (busy !== wasBusy.current) onBusyChange?.(busy);
    wasBusy.current = busy;
  }, [busy, onBusyChange]);

  // Previews are freed when the form goes away.
  const itemsRef = useRef(items);
  itemsRef.current = items;
  useEffect(
    () => () => {
      itemsRef.current.forEach((i) => i.preview && URL.revokeObjectURL(i.preview));
      handles.current.forEach((handle) => handle.abort());
    },
    [],
  );

  const addFiles = (list: FileList | null) => {
    if (!list || list.length === 0) return;
    const added: PageItem[] = Array.from(list)
      .sort(byName)
      .map((file) => {
        const key = newKey();
        const refused = precheckFile(file);
        if (refused)
          return { key, status: "error", imageId: null, fileName: file.name, progress: 0, error: describeUploadFailure(refused) };
        files.current.set(key, file);
        return { key, status: "queued", imageId: null, fileName: file.name, progress: 0, preview: URL.createObjectURL(file) };
      });
    setItems((current) => [...current, ...added]);
    if (input.current) input.current.value = "";
  };

  const remove = (key: string) => {
    const item = items.find((i) => i.key === key);
    if (item?.preview) URL.revokeObjectURL(item.preview);
    files.current.delete(key);
    handles.current.get(key)?.abort();
    if (item?.imageId && String(item.imageId) === cover) setCover("");
    setItems((list) => list.filter((i) => i.key !== key));
  };

  const retry = (key: string) => {
    started.current.delete(key);
    update(key, { status: "queued", error: undefined, retryable: false, progress: 0 });
  };

  const ready = items.filter((i) => i.status === "ready" && i.imageId !== null);
  const uploading = items.filter((i) => i.status === "queued" || i.status === "uploading").length;
  const failed = items.filter((i) => i.status === "error").length;
  let pageNumber = 0;

  return (
    <fieldset className={`pages${error ? " pages--invalid" : ""}`} aria-describedby={error ? "pages-error" : undefined}>
      <legend>Pages</legend>
      <div
        className={`dropzone${dropping ? " dropzone--active" : ""}`}
        onDragOver={(e) => {
          if (!hydrated || !e.dataTransfer.types.includes("Files")) return;
          e.preventDefault();
          setDropping(true);
        }}
        onDragLeave={() => setDropping(false)}
        onDrop={(e) => {
          if (!hydrated || e.dataTransfer.files.length === 0) return;
          e.preventDefault();
          setDropping(false);
          addFiles(e.dataTransfer.files);
        }}
      >
        <input
          ref={input}
          id="field-pageFiles"
          className="dropzone__input"
          type="file"
          name="pageFiles"
          multiple
          accept={ACCEPT_ATTRIBUTE}
          aria-describedby="pages-hint"
          onChange={hydrated ? (e) => addFiles(e.currentTarget.files) : undefined}
        />
        <label htmlFor="field-pageFiles" className="dropzone__label">
          <span className="dropzone__title">{hydrated ? "Add page images" : "Choose page images"}</span>
          <span className="dropzone__text">
            {hydrated ? "Choose several files at once, or drop them here." : "Choose several files at once; they upload when you save."}
          </span>
        </label>
        <p id="pages-hint" className="field__hint">
          JPEG, PNG, WebP or GIF, at most 10 MB each. New files are added in file-name order
          {hydrated ? "; drag pages or use the arrows to reorder them" : ""}.
        </p>
      </div>

      <p className="pages__summary" role="status">
        {ready.length === 1 ? "1 page" : `${ready.length} pages`}
        {uploading ? ` · ${uploading} uploading` : ""}
        {failed ? ` · ${failed} failed` : ""}
      </p>
      {error ? (
        <p id="pages-error" className="field__error">
          {error}
        </p>
      ) : null}
      {uploadErrors.length > 0 ? (
        <ul className="pages__errors" role="alert">
          {uploadErrors.map((message, i) => (
            <li key={i}>{message}</li>
          ))}
        </ul>
      ) : null}

      {items.length > 0 ? (
        <ol className="page-list">
          {items.map((item, index) => {
            const n = item.status === "ready" ? ++pageNumber : null;
            const label = n ? `Page ${n}` : item.fileName;
            const thumb = item.preview ?? (item.imageId ? ownImageUrl(item.imageId, 160) : null);
            return (
              <li
                key={item.key}
                className={`page-item page-item--${item.status}${dragged === index ? " page-item--dragged" : ""}`}
                draggable={hydrated && item.status !== "error"}
                onDragStart={(e) => {
                  setDragged(index);
                  e.dataTransfer.effectAllowed = "move";
                }}
                onDragOver={(e) => {
                  if (dragged === null) return;
                  e.preventDefault();
                  if (dragged !== index) {
                    setItems((list) => move(list, dragged, index));
                    setDragged(index);
                  }
                }}
                onDragEnd={() => setDragged(null)}
                onDrop={(e) => {
                  if (dragged !== null) e.preventDefault();
                  setDragged(null);
                }}
              >
                {item.status === "ready" && item.imageId ? <input type="hidden" name="pages" value={item.imageId} /> : null}
                <div className="page-item__thumb">
                  {thumb && item.status !== "error" ? <img src={thumb} alt="" loading="lazy" /> : <span aria-hidden="true">!</span>}
                  {n ? <span className="page-item__number">{n}</span> : null}
                </div>
                <div className="page-item__body">
                  <p className="page-item__name">
                    <span className="page-item__label">{label}</span>
                    {n && item.fileName ? <span className="page-item__file">{item.fileName}</span> : null}
                  </p>
                  {item.status === "uploading" || item.status === "queued" ? (
                    <p className="page-item__progress">
                      <progress max={1} value={item.progress} aria-label={`Uploading ${item.fileName}`} />
                      <span>{item.status === "queued" ? "Waiting..." : `${Math.round(item.progress * 100)}%`}</span>
                    </p>
                  ) : null}
                  {item.status === "error" ? <p className="page-item__error">{item.error}</p> : null}
                  {item.status === "ready" && item.imageId ? (
                    <label className="page-item__cover">
                      <input
                        type="radio"
                        name="coverId"
                        value={item.imageId}
                        checked={cover === String(item.imageId)}
                        onChange={() => setCover(String(item.imageId))}
                        aria-label={`Use page ${n} as the cover`}
                      />
                      <span aria-hidden="true">Cover</span>
                    </label>
                  ) : null}
                </div>
                <div className="page-item__actions">
                  {hydrated && item.status !== "error" ? (
                    <>
                      <button
                        type="button"
                        className="icon-button"
                        onClick={() => setItems((list) => move(list, index, index - 1))}
                        disabled={index === 0}
                        aria-label={`Move ${label} up`}
                      >
                        ↑
                      </button>
                      <button
                        type="button"
                        className="icon-button"
                        onClick={() => setItems((list) => move(list, index, index + 1))}
                        disabled={index === items.length - 1}
                        aria-label={`Move ${label} down`}
                      >
                        ↓
                      </button>
                    </>
                  ) : null}
                  {hydrated && item.status === "error" && item.retryable && files.current.has(item.key) ? (
                    <button type="button" className="button button--ghost button--small" onClick={() => retry(item.key)}>
                      Retry
                    </button>
                  ) : null}
                  {hydrated ? (
                    <button
                      type="button"
                      className="icon-button icon-button--danger"
                      onClick={() => remove(item.key)}
                      aria-label={item.status === "error" ? `Dismiss ${item.fileName}` : `Remove ${label}`}
                    >
                      ×
                    </button>
                  ) : item.imageId ? (
                    <label className="checkbox">
                      <input type="checkbox" name="removePage" value={item.imageId} /> Remove
                    </label>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ol>
      ) : null}

      <div className="pages__cover-default">
        <label className="radio">
          <input type="radio" name="coverId" value="" checked={cover === ""} onChange={() => setCover("")} />
          Cover: use the first page
        </label>
        {extraCover ? (
          <label className="radio radio--thumb">
            <input
              type="radio"
              name="coverId"
              value={extraCover}
              checked={cover === String(extraCover)}
              onChange={() => setCover(String(extraCover))}
            />
            <img src={ownImageUrl(extraCover, 160)} alt="" width={40} height={53} />
            Keep the current cover
          </label>
        ) : null}
      </div>
    </fieldset>
  );
}
