import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import { useState } from "react";
import { UserEditBody } from "../../server/rules/user.ts";
import { userPath } from "../lib/urls.ts";
import { FormError } from "../components/field.tsx";
import { ProfileHero } from "../components/profile-hero.tsx";
import { FailedPage } from "../components/notice.tsx";
import { ImagePicker } from "../components/publish/image-picker.tsx";
import { ApiError, apiFieldErrors, apiFor } from "../lib/api.server.ts";
import { fieldErrors, type FieldErrors } from "../lib/forms.ts";
import { formatDate } from "../lib/format.ts";
import { attempt, readFailure } from "../lib/load.server.ts";
import { imageField, readPublishForm } from "../lib/publish.server.ts";
import { requireUser } from "../lib/session.server.ts";
import publishStyles from "../styles/publish.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: publishStyles }];

export const meta: MetaFunction = () => [{ title: "Your profile · Inkwell" }];

/** Only for the signed-in user; guests go to /login and come back (docs/web.md §6). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireUser(request, context);
  const me = await attempt(apiFor(request, context, session).user(session.user.username));
  if (me.ok) return { user: me.value, error: null };
  const failed = readFailure(me, "User not found", "Failed to load profile data");
  return data({ user: null, error: failed.message }, { status: failed.status });
}

interface PicturesResult {
  ok: boolean;
  message: string | null;
  fieldErrors: FieldErrors;
  images: { profileImageID: number | null; profileBannerID: number | null };
}

/** Sets the avatar and the banner (PUT /user/{id}); without JavaScript the files come with the form. */
export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireUser(request, context);
  const api = apiFor(request, context, session);
  const max = context.config.uploadMaxBytes;
  const read = await readPublishForm(request, context, api, ["profileImageIDFile", "profileBannerIDFile"]);
  const avatar = imageField(read, "profileImageID", max);
  const banner = imageField(read, "profileBannerID", max);
  const images = { profileImageID: avatar.id ?? null, profileBannerID: banner.id ?? null };
  const answer = (status: number, body: Omit<PicturesResult, "images">) => data<PicturesResult>({ ...body, images }, { status });
  if (avatar.error || banner.error) {
    return answer(400, {
      ok: false,
      message: null,
      fieldErrors: { profileImageID: avatar.error ?? undefined, profileBannerID: banner.error ?? undefined },
    });
  }
  const parsed = UserEditBody.safeParse({ profileImageID: avatar.id, profileBannerID: banner.id });
  if (!parsed.success) return answer(400, { ok: false, message: null, fieldErrors: fieldErrors(parsed.error) });
  try {
    await api.updateUser(session.user.id, parsed.data);
    return answer(200, { ok: true, message: "Profile pictures saved.", fieldErrors: {} });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return answer(400, {
      ok: false,
      message: err.status === 400 ? "Invalid profile data. Please check your input." : "Failed to update profile",
      fieldErrors: apiFieldErrors(err),
    });
  }
}

/** Avatar and banner: pick, upload, save. */
function PicturesForm({ avatarId, bannerId }: { avatarId: number | null; bannerId: number | null }) {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const [busy, setBusy] = useState(0);
  const saving = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const images = result?.images ?? { profileImageID: avatarId, profileBannerID: bannerId };
  const onBusy = (b: boolean) => setBusy((n) => Math.max(0, n + (b ? 1 : -1)));
  return (
    <section className="card profile__details" id="pictures" aria-labelledby="pictures-title">
      <h2 id="pictures-title">Profile pictures</h2>
      {result?.ok ? (
        <p className="save-success save-success--inline" role="status">
          {result.message}
        </p>
      ) : (
        <FormError>{result?.message}</FormError>
      )}
      <Form method="post" encType="multipart/form-data" className="form" preventScrollReset>
        <div className="image-pickers">
          <ImagePicker
            label="Avatar"
            name="profileImageID"
            imageId={images.profileImageID}
            shape="round"
            hint="Square, at least 240 × 240 px."
            error={result?.fieldErrors.profileImageID}
            onBusyChange={onBusy}
          />
          <ImagePicker
            label="Banner"
            name="profileBannerID"
            imageId={images.profileBannerID}
            shape="wide"
            hint="Wide, about 1200 × 400 px."
            error={result?.fieldErrors.profileBannerID}
            onBusyChange={onBusy}
          />
        </div>
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={saving || busy > 0}>
            {saving ? "Saving..." : busy > 0 ? "Uploading..." : "Save pictures"}
          </button>
        </div>
      </Form>
    </section>
  );
}

export default function Profile() {
  const { user, error } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const refreshing = navigation.state === "loading" && navigation.location.pathname === "/profile";
  const refresh = (
    <Form method="get" className="inline-form">
      <button type="submit" className="button button--secondary" disabled={refreshing}>
        {refreshing ? "Refreshing..." : "Refresh Profile"}
      </button>
    </Form>
  );
  if (!user) {
    return (
      <FailedPage title="Your profile" error={error}>
        {refresh}
      </FailedPage>
    );
  }
  const rows: [string, string][] = [
    ["Username", user.username],
    ["ID", String(user.id)],
    ["Email", user.email || "N/A"],
    ["Member since", formatDate(user.joinedAt) || "N/A"],
    ["Profile image ID", user.profileImageID ? String(user.profileImageID) : "Default"],
    ["Banner ID", user.profileBannerID ? String(user.profileBannerID) : "None"],
  ];
  return (
    <div className="container profile">
      <ProfileHero user={user}>
        <div className="profile__heading">
          <h1>{user.username}</h1>
          <p className="muted">Your account</p>
        </div>
      </ProfileHero>
      <section className="card profile__details" aria-labelledby="details-title">
        <h2 id="details-title">Account details</h2>
        <dl className="details">
          {rows.map(([term, value]) => (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <div className="actions">
          {refresh}
          <Link to={userPath(user.username)} className="button button--ghost">
            View public page
          </Link>
        </div>
      </section>
      <PicturesForm avatarId={user.profileImageID} bannerId={user.profileBannerID} />
    </div>
  );
}
