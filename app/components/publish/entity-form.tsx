import { useActionData, useLoaderData } from "@remix-run/react";
import { HUB_DESCRIPTION_MAX, HUB_NAME_MAX, HubBody, HubEditBody } from "../../../server/rules/hub.ts";
import { SERIES_DESCRIPTION_MAX, SERIES_NAME_MAX, SeriesBody, SeriesEditBody } from "../../../server/rules/series.ts";
import { onFields, type EntityKind, type EntityValues } from "../../lib/entity-form.ts";
import { formValues } from "../../lib/forms.ts";
import type { FormResult, Refusal } from "../../lib/publish.ts";
import {
  DIRECTION_OPTIONS,
  RATING_OPTIONS,
  SERIES_META_DEFAULTS,
  SERIES_META_FIELDS,
  seriesMetaBody,
  STATUS_OPTIONS,
  tagsText,
} from "../../lib/series-meta.ts";
import { hubPath, seriesPath } from "../../lib/urls.ts";
import { SelectField } from "../field.tsx";
import { ImagePicker } from "./image-picker.tsx";
import { PublishForm } from "./publish-form.tsx";
import { GuidelineList, PublishLayout, RefusalPage } from "./publish-layout.tsx";
import { TextField } from "./text-field.tsx";

const TEXT_FIELDS = ["name", "description"] as const;
/** The longest tag field: ten tags of 30 characters and their separators. */
const TAGS_TEXT_MAX = 10 * 32;

/** What the rules check in the browser: the series' metadata as the server sends it (tags as an array). */
function checked(kind: EntityKind, form: FormData) {
  if (kind === "hub") return formValues(form, TEXT_FIELDS);
  const values = formValues(form, [...TEXT_FIELDS, ...SERIES_META_FIELDS]);
  return { name: values.name, description: values.description, ...seriesMetaBody(values) };
}

const KINDS = {
  hub: {
    label: "Hub",
    rules: { create: HubBody, edit: HubEditBody },
    nameMax: HUB_NAME_MAX,
    descriptionMax: HUB_DESCRIPTION_MAX,
    path: hubPath,
    placeholder: "e.g. Manga Lovers",
    describe: "What is this hub about, and who is it for?",
    intro: "Hubs are communities: a place for members to post, discuss and run art contests.",
    guidelines: [
      "Pick a clear name (3 to 100 characters). It is the hub's address, so it must be unique.",
      "Say in the description who the hub is for and what belongs in it (up to 500 characters).",
      "A square logo (at least 240 × 240 px) and a wide banner (about 1200 × 400 px) make the hub easy to spot.",
      "Images must be your own uploads: JPEG, PNG, WebP or GIF, at most 10 MB each.",
      "You become the hub's first member. Members can post and discuss.",
    ],
  },
  series: {
    label: "Series",
    rules: { create: SeriesBody, edit: SeriesEditBody },
    nameMax: SERIES_NAME_MAX,
    descriptionMax: SERIES_DESCRIPTION_MAX,
    path: seriesPath,
    placeholder: "e.g. Moonlit Ronin",
    describe: "The premise, the genre, how often new chapters come out...",
    intro: "A series holds your comic's chapters. Create it once, then publish chapters into it.",
    guidelines: [
      "The name (3 to 100 characters) is the series' address, so it must be unique.",
      "A short description tells readers what to expect: genre, premise, update schedule (up to 500 characters).",
      "The banner shows 300 px high across the series page; the logo is a 120 px square. Wide art works best for the banner.",
      "Publish only your own work, or clearly credited reposts of others' work.",
      "Tags, status and content rating help readers find the series; rate it Mature if it is meant for adults only.",
      "After saving, add chapters from the series page or Publish → New Chapter.",
    ],
  },
} as const;

/** The create / edit screen of a hub or a series (they share one form: name, description, logo, banner). */
export function EntityFormScreen({ kind }: { kind: EntityKind }) {
  const loaded = useLoaderData<{ entity: EntityValues | null } | { refusal: Refusal }>();
  const result = useActionData<FormResult>();
  if ("refusal" in loaded) return <RefusalPage refusal={loaded.refusal} />;
  const k = KINDS[kind];
  const entity = loaded.entity;
  const editing = entity !== null;
  const meta = entity?.meta;
  const values: Record<string, string> =
    result && !result.ok
      ? result.values
      : {
          name: entity?.name ?? "",
          description: entity?.description ?? "",
          tags: tagsText(meta?.tags),
          status: meta?.status ?? SERIES_META_DEFAULTS.status,
          contentRating: meta?.contentRating ?? SERIES_META_DEFAULTS.contentRating,
          readingDirection: meta?.readingDirection ?? SERIES_META_DEFAULTS.readingDirection,
        };
  const images = (result && !result.ok && result.images) || {
    profileImageId: entity?.profileImageId ?? null,
    profileBannerId: entity?.profileBannerId ?? null,
  };
  const rules = editing ? k.rules.edit : k.rules.create;
  return (
    <PublishLayout
      eyebrow={editing ? `Edit ${kind}` : `New ${kind}`}
      title={editing ? `Edit ${entity.name}` : `Create a ${kind}`}
      intro={k.intro}
      guidelines={<GuidelineList items={[...k.guidelines]} />}
    >
      <PublishForm
        result={result}
        check={(form) => onFields(rules.safeParse(checked(kind, form)))}
        submitLabel={editing ? "Save changes" : `Create ${kind}`}
        cancelTo={editing ? k.path(entity.name) : "/publish"}
      >
        {({ errors, setBusy }) => (
          <>
            <TextField
              label={`${k.label} name`}
              name="name"
              max={k.nameMax}
              defaultValue={values.name}
              error={errors.name}
              required
              placeholder={k.placeholder}
            />
            <TextField
              label="Description"
              name="description"
              max={k.descriptionMax}
              defaultValue={values.description}
              error={errors.description}
              multiline
              rows={4}
              placeholder={k.describe}
            />
            {kind === "series" ? (
              <>
                <TextField
                  label="Tags"
                  name="tags"
                  max={TAGS_TEXT_MAX}
                  defaultValue={values.tags ?? ""}
                  error={errors.tags}
                  hint="Up to 10, separated by commas, e.g. fantasy, samurai, slice of life. Readers find the series by them."
                  placeholder="fantasy, samurai"
                />
                <div className="choice-fields">
                  <SelectField
                    label="Status"
                    name="status"
                    options={STATUS_OPTIONS}
                    defaultValue={values.status || SERIES_META_DEFAULTS.status}
                    error={errors.status}
                  />
                  <SelectField
                    label="Content rating"
                    name="contentRating"
                    options={RATING_OPTIONS}
                    defaultValue={values.contentRating || SERIES_META_DEFAULTS.contentRating}
                    error={errors.contentRating}
                    hint="Mature series are hidden from lists unless a reader turns them on."
                  />
                  <SelectField
                    label="Reading direction"
                    name="readingDirection"
                    options={DIRECTION_OPTIONS}
                    defaultValue={values.readingDirection || SERIES_META_DEFAULTS.readingDirection}
                    error={errors.readingDirection}
                    hint="How the reader opens the chapters."
                  />
                </div>
              </>
            ) : null}
            <div className="image-pickers">
              <ImagePicker
                label="Logo"
                name="profileImageId"
                imageId={images.profileImageId ?? null}
                shape="square"
                hint="Square, at least 240 × 240 px."
                error={errors.profileImageId}
                onBusyChange={setBusy}
              />
              <ImagePicker
                label="Banner"
                name="profileBannerId"
                imageId={images.profileBannerId ?? null}
                shape="wide"
                hint="Wide, about 1200 × 400 px."
                error={errors.profileBannerId}
                onBusyChange={setBusy}
              />
            </div>
          </>
        )}
      </PublishForm>
    </PublishLayout>
  );
}
