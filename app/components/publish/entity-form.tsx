import { useActionData, useLoaderData } from "@remix-run/react";
import { HUB_DESCRIPTION_MAX, HUB_NAME_MAX, HubBody, HubEditBody } from "../../../server/rules/hub.ts";
import { SERIES_DESCRIPTION_MAX, SERIES_NAME_MAX, SeriesBody, SeriesEditBody } from "../../../server/rules/series.ts";
import type { EntityKind, EntityValues } from "../../lib/entity-form.ts";
import { formValues } from "../../lib/forms.ts";
import type { FormResult, Refusal } from "../../lib/publish.ts";
import { hubPath, seriesPath } from "../../lib/urls.ts";
import { ImagePicker } from "./image-picker.tsx";
import { PublishForm } from "./publish-form.tsx";
import { GuidelineList, PublishLayout, RefusalPage } from "./publish-layout.tsx";
import { TextField } from "./text-field.tsx";

const TEXT_FIELDS = ["name", "description"] as const;

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
  const values = result && !result.ok ? result.values : { name: entity?.name ?? "", description: entity?.description ?? "" };
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
        check={(form) => rules.safeParse(formValues(form, TEXT_FIELDS))}
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
