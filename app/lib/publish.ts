// The publish forms' shared words and shapes (browser and server).
import type { FieldErrors } from "./forms.ts";

export type PublishKind = "hub" | "series" | "post" | "chapter";

/** Redirect after a successful save (docs/web.md §11). */
export const REDIRECT_AFTER_SAVE_MS = 2000;

export interface FormSuccess {
  ok: true;
  message: string;
  redirectTo: string;
}

export interface FormFailure {
  ok: false;
  /** What was typed, to fill the form again (without JavaScript the page is new). */
  values: Record<string, string>;
  fieldErrors: FieldErrors;
  formError: string | null;
  /** Image ids as they stand after this post (uploads that worked are kept). */
  images?: Record<string, number | null>;
  /** Chapter pages as they stand after this post (uploads that worked are kept), and the cover. */
  pages?: PageRef[];
  coverId?: number | null;
  /** One line per file that could not be uploaded. */
  uploadErrors?: string[];
  /** The post editor's preview without JavaScript: not an error, the page shows the preview tab. */
  preview?: boolean;
  /** That preview, rendered on the server. */
  previewHtml?: string;
}

/** A chapter page in the publish form. */
export interface PageRef {
  imageId: number;
  fileName?: string;
}

export type FormResult = FormSuccess | FormFailure;

/** A page the loader answers instead of a form: not yours (403), not found (404), or the API failed. */
export interface Refusal {
  status: number;
  title: string;
  message: string;
}
