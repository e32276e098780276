import { useEffect, useRef, useState } from "react";
import { ACCEPT_ATTRIBUTE, describeUploadFailure, ownImageUrl, precheckFile, UploadError, uploadWithProgress } from "../../lib/uploads.ts";
import { useHydrated } from "../../lib/use-hydrated.ts";

export type PickerShape = "square" | "round" | "wide";

/**
 * One image of a form (logo, banner, avatar): a preview, a file input and Remove. With
 * JavaScript the file uploads at once (progress shown) and its id goes in the hidden input
 * `name`; the file input is then emptied so the form does not send it again. Without, the file
 * travels with the form (`<name>File`) and the action uploads it; a Remove box clears the image.
 */
export function ImagePicker({
  label,
  name,
  imageId,
  shape,
  hint,
  error,
  onBusyChange,
}: {
  label: string;
  name: string;
  imageId: number | null;
  shape: PickerShape;
  hint?: string;
  error?: string | null;
  onBusyChange?: (busy: boolean) => void;
}) {
  const hydrated = useHydrated();
  const [id, setId] = useState<number | null>(imageId);
  const [progress, setProgress] = useState<number | null>(null);
  const [localPreview, setLocalPreview] = useState<string | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const fieldId = `picker-${name}`;

  useEffect(() => setId(imageId), [imageId]);
  useEffect(
    () => () => {
      if (localPreview) URL.revokeObjectURL(localPreview);
    },
    [localPreview],
  );

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setUploadError(null);
    const refused = precheckFile(file);
    if (refused) {
      setUploadError(describeUploadFailure(refused));
      if (fileInput.current) fileInput.current.value = "";
      return;
    }
    setLocalPreview(URL.createObjectURL(file));
    setProgress(0);
    onBusyChange?.(true);
    try {
      const image = await uploadWithProgress(file, setProgress).promise;
      setId(image.id);
    } catch (err) {
      setUploadError(err instanceof UploadError ? describeUploadFailure(err.failure) : "The upload failed. Please try again.");
    } finally {
      setProgress(null);
      setLocalPreview(null);
      onBusyChange?.(false);
      if (fileInput.current) fileInput.current.value = "";
    }
  };

  const previewWidth = shape === "wide" ? 640 : 240;
  const shownError = uploadError ?? error;
  const describedBy = [hint ? `${fieldId}-hint` : null, shownError ? `${fieldId}-error` : null].filter(Boolean).join(" ") || undefined;

  return (
    <fieldset className={`image-picker image-picker--${shape}${shownError ? " image-picker--invalid" : ""}`}>
      <legend>{label}</legend>
      <input type="hidden" name={name} value={id ?? ""} />
      <div className="image-picker__row">
        <div className="image-picker__preview">
          {localPreview ? (
            <img src={localPreview} alt="" />
          ) : id ? (
            <img src={ownImageUrl(id, previewWidth)} alt={`${label} preview`} />
          ) : (
            <span className="image-picker__empty">No {label.toLowerCase()}</span>
          )}
          {progress !== null ? (
            <span className="image-picker__progress">
              <progress max={1} value={progress} aria-label={`Uploading ${label.toLowerCase()}`} />
              <span>{Math.round(progress * 100)}%</span>
            </span>
          ) : null}
        </div>
        <div className="image-picker__controls">
          <input
            ref={fileInput}
            id={fieldId}
            className="image-picker__file"
            type="file"
            name={`${name}File`}
            accept={ACCEPT_ATTRIBUTE}
            aria-label={`${label} file`}
            aria-describedby={describedBy}
            onChange={hydrated ? (e) => void onFile(e.currentTarget.files?.[0]) : undefined}
          />
          {/* With JavaScript the input hides behind this label (styled as a button); it keeps the focus ring. */}
          <label htmlFor={fieldId} className="button button--ghost button--small image-picker__choose">
            {id ? "Replace image" : "Choose image"}
          </label>
          {id && hydrated ? (
            <button type="button" className="button button--ghost button--small" onClick={() => setId(null)} disabled={progress !== null}>
              Remove
            </button>
          ) : null}
          {id && !hydrated ? (
            <label className="checkbox">
              <input type="checkbox" name={`${name}Remove`} value="1" /> Remove
            </label>
          ) : null}
        </div>
      </div>
      {hint ? (
        <p id={`${fieldId}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      {shownError ? (
        <p id={`${fieldId}-error`} className="field__error" role="alert">
          {shownError}
        </p>
      ) : null}
    </fieldset>
  );
}
