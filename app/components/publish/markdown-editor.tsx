import { useFetcher } from "@remix-run/react";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useHydrated } from "../../lib/use-hydrated.ts";
import { Markdown } from "../markdown.tsx";
import { TextField, type TextFieldProps } from "./text-field.tsx";

type Edit = (text: string, start: number, end: number) => { text: string; start: number; end: number };

/** Wraps the selection (or a placeholder, selected so typing replaces it) in `before` and `after`. */
const wrap =
  (before: string, after: string, placeholder: string): Edit =>
  (text, start, end) => {
    const inner = text.slice(start, end) || placeholder;
    return {
      text: text.slice(0, start) + before + inner + after + text.slice(end),
      start: start + before.length,
      end: start + before.length + inner.length,
    };
  };

/** Starts the selection's line with `prefix` (a heading), replacing a heading marker already there. */
const linePrefix =
  (prefix: string, placeholder: string): Edit =>
  (text, start, end) => {
    const lineStart = text.lastIndexOf("\n", start - 1) + 1;
    const rest = text.slice(lineStart).replace(/^#{1,6} /, "");
    const line = text.slice(lineStart, end).replace(/^#{1,6} /, "");
    const body = line || placeholder;
    const tail = line ? rest.slice(line.length) : rest;
    const next = text.slice(0, lineStart) + prefix + body + tail;
    return { text: next, start: lineStart + prefix.length, end: lineStart + prefix.length + body.length };
  };

const link: Edit = (text, start, end) => {
  const label = text.slice(start, end) || "link text";
  const inserted = `[${label}](https://)`;
  const urlStart = start + label.length + 3;
  return { text: text.slice(0, start) + inserted + text.slice(end), start: urlStart, end: urlStart + "https://".length };
};

const codeBlock: Edit = (text, start, end) => {
  const inner = text.slice(start, end) || "code";
  const lead = start > 0 && text[start - 1] !== "\n" ? "\n" : "";
  const block = `${lead}\`\`\`\n${inner}\n\`\`\`\n`;
  const innerStart = start + lead.length + 4;
  return { text: text.slice(0, start) + block + text.slice(end), start: innerStart, end: innerStart + inner.length };
};

/** The toolbar of docs/web.md §9: bold, italic, code, H1, H2, link, code block. */
export const TOOLBAR: { label: string; title: string; edit: Edit; glyph: React.ReactNode }[] = [
  { label: "Bold", title: "Bold (**text**)", edit: wrap("**", "**", "bold text"), glyph: <b>B</b> },
  { label: "Italic", title: "Italic (_text_)", edit: wrap("_", "_", "italic text"), glyph: <i>I</i> },
  { label: "Code", title: "Inline code (`code`)", edit: wrap("`", "`", "code"), glyph: <code>{"<>"}</code> },
  { label: "H1", title: "Heading 1 (# )", edit: linePrefix("# ", "Heading"), glyph: <span>H1</span> },
  { label: "H2", title: "Heading 2 (## )", edit: linePrefix("## ", "Heading"), glyph: <span>H2</span> },
  { label: "Link", title: "Link ([text](url))", edit: link, glyph: <span>Link</span> },
  { label: "Code block", title: "Code block (```)", edit: codeBlock, glyph: <code>{"{ }"}</code> },
];

/**
 * The preview's HTML, rendered by the server (/markdown-preview) for the text shown: asked for when
 * the Preview tab opens on text it has not rendered yet. `initial` is the no-JavaScript preview.
 */
function usePreview(text: string, active: boolean, initial: string | undefined) {
  const fetcher = useFetcher<{ text: string; html: string }>();
  const [asked, setAsked] = useState<string | null>(null);
  const [initialText] = useState(text);
  const initialShown = initial !== undefined && text === initialText;
  useEffect(() => {
    const shown = fetcher.data?.text === text || initialShown;
    if (!active || !text.trim() || shown || asked === text) return;
    setAsked(text);
    fetcher.submit({ text }, { method: "post", action: "/markdown-preview" });
  }, [active, text, asked, initialShown, fetcher]);
  if (fetcher.data?.text === text) return { html: fetcher.data.html, failed: false };
  if (initialShown) return { html: initial, failed: false };
  return { html: null, failed: fetcher.state === "idle" && asked === text && fetcher.data?.text !== text };
}

/**
 * A markdown textarea with its toolbar and Write / Preview tabs. The preview renders with the
 * same component as the published page (docs/web.md §9). With JavaScript the tabs switch in
 * place; without, they are submit buttons (`intent=preview|write`) and the action answers with
 * the same text and the chosen tab.
 */
export function MarkdownEditor({
  defaultValue = "",
  rows = 14,
  initialTab = "write",
  previewHtml,
  ...field
}: Pick<TextFieldProps, "label" | "name" | "max" | "defaultValue" | "error" | "hint" | "required" | "rows"> & {
  initialTab?: "write" | "preview";
  /** The preview the server rendered for the no-JavaScript Preview tab. */
  previewHtml?: string;
}) {
  const hydrated = useHydrated();
  const [value, setValue] = useState(defaultValue);
  const [tab, setTab] = useState(initialTab);
  const area = useRef<HTMLTextAreaElement>(null);
  const rendered = usePreview(value, tab === "preview", previewHtml);

  // The selection to restore once the edited text is rendered (before the next key press).
  const [selection, setSelection] = useState<{ start: number; end: number } | null>(null);
  useLayoutEffect(() => {
    if (!selection || !area.current) return;
    area.current.focus();
    area.current.setSelectionRange(selection.start, selection.end);
  }, [selection]);

  const apply = (edit: Edit) => {
    const el = area.current;
    if (!el) return;
    const next = edit(value, el.selectionStart, el.selectionEnd);
    setValue(next.text);
    setSelection({ start: next.start, end: next.end });
  };

  const tabButton = (which: "write" | "preview", text: string) => (
    <button
      type={hydrated ? "button" : "submit"}
      name={hydrated ? undefined : "intent"}
      value={hydrated ? undefined : which}
      role={hydrated ? "tab" : undefined}
      id={`${field.name}-tab-${which}`}
      aria-selected={hydrated ? tab === which : undefined}
      aria-controls={hydrated ? (which === "write" ? `field-${field.name}` : `${field.name}-panel-preview`) : undefined}
      aria-pressed={hydrated ? undefined : tab === which}
      className="editor__tab"
      onClick={hydrated ? () => setTab(which) : undefined}
    >
      {text}
    </button>
  );

  const bar = (
    <div className="editor__bar">
      <div className="editor__tabs" role={hydrated ? "tablist" : undefined} aria-label="Write or preview">
        {tabButton("write", "Write")}
        {tabButton("preview", "Preview")}
      </div>
      {hydrated && tab === "write" ? (
        <div className="editor__toolbar" role="toolbar" aria-label="Formatting" aria-controls={`field-${field.name}`}>
          {TOOLBAR.map((b) => (
            <button key={b.label} type="button" className="editor__tool" aria-label={b.label} title={b.title} onClick={() => apply(b.edit)}>
              {b.glyph}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
  // The write panel is the textarea itself; the preview renders beside it while it is hidden (still sent with the form).
  const preview = (
    <div
      id={`${field.name}-panel-preview`}
      role={hydrated ? "tabpanel" : undefined}
      aria-labelledby={hydrated ? `${field.name}-tab-preview` : undefined}
      className="editor__preview"
      hidden={tab !== "preview"}
    >
      {tab !== "preview" ? null : !value.trim() ? (
        <p className="muted">Nothing to preview yet.</p>
      ) : rendered.html !== null ? (
        <Markdown html={rendered.html} />
      ) : (
        <p className="muted" role="status">
          {rendered.failed ? "Could not render the preview. Please try again." : "Rendering the preview…"}
        </p>
      )}
    </div>
  );
  return (
    <div className="editor">
      <TextField
        {...field}
        value={value}
        onValue={setValue}
        multiline
        rows={rows}
        textareaRef={area}
        between={bar}
        after={preview}
        hideInput={tab !== "write"}
      />
    </div>
  );
}
