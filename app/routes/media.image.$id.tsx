import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import { useState } from "react";
import { userPath } from "../lib/urls.ts";
import { CalendarIcon } from "../components/icons.tsx";
import { Avatar, useImageUrl } from "../components/images.tsx";
import { FailedPage, Notice } from "../components/notice.tsx";
import { formatDate } from "../lib/format.ts";
import { positiveId } from "../lib/ids.ts";
import { attempt, NOT_FOUND, readFailure, viewerApi } from "../lib/load.server.ts";
import { srcSetFor } from "../lib/renditions.ts";
import { fileSize, ownImageUrl } from "../lib/uploads.ts";
import mediaStyles from "../styles/media.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: mediaStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.image?.fileName ?? "Image"} · Inkwell` }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = positiveId(params.id);
  const { api, session } = await viewerApi(request, context);
  const metadata = id === null ? NOT_FOUND : await attempt(api.imageMetadata(id));
  if (!metadata.ok) {
    const failed = readFailure(metadata, "Image not found", "Failed to load image data");
    return data({ image: null, error: failed.message, author: null, own: false }, { status: failed.status });
  }
  // The author is extra: without it the page says so (docs/web.md §2).
  const author = await attempt(api.userById(metadata.value.authorId));
  // The uploader may be looking at an image nothing published yet: theirs comes through the web app.
  const own = session?.user.id === metadata.value.authorId;
  return { image: metadata.value, error: null, author: author.ok ? author.value : null, own };
}

export default function ImagePage() {
  const { image, error, author, own } = useLoaderData<typeof loader>();
  const publicUrl = useImageUrl();
  const url = own ? ownImageUrl : publicUrl;
  const [failed, setFailed] = useState(false);
  if (!image) {
    return <FailedPage title="Image" error={error} />;
  }
  const facts: [string, string][] = [
    ["File name", image.fileName],
    ["Content type", image.contentType],
    ["Dimensions", `${image.width} × ${image.height} px`],
    ["Size", fileSize(image.size)],
    ["Uploaded", formatDate(image.createdAt)],
  ];
  return (
    <div className="container media-page">
      <figure className="media-figure">
        <div className="media-figure__frame">
          {failed ? (
            <Notice tone="error">Failed to load image</Notice>
          ) : (
            <img
              src={url(image.id, Math.min(image.width, 1280))}
              srcSet={srcSetFor(url, image.id, image.width)}
              sizes="(min-width: 1100px) 760px, 100vw"
              width={image.width}
              height={image.height}
              alt={image.fileName}
              onError={() => setFailed(true)}
            />
          )}
        </div>
        <figcaption className="visually-hidden">{image.fileName}</figcaption>
      </figure>
      <aside className="media-info">
        <div className="card media-info__card">
          <p className="eyebrow">Image</p>
          <h1 className="media-info__title">{image.fileName}</h1>
          <dl className="details">
            {facts.map(([term, value]) => (
              <div key={term}>
                <dt>{term}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          <p>
            <a href={url(image.id)} className="button button--ghost button--small" target="_blank" rel="noopener noreferrer">
              Open full size
            </a>
          </p>
        </div>
        <div className="card media-info__card">
          <h2 className="media-info__subtitle">Author</h2>
          {author ? (
            <div className="media-author">
              <Avatar name={author.username} imageId={author.profileImageID} size={56} />
              <div>
                <Link to={userPath(author.username)} className="media-author__name">
                  @{author.username}
                </Link>
                {author.email ? <p className="media-author__meta">{author.email}</p> : null}
                <p className="media-author__meta">
                  <CalendarIcon size={14} /> Joined {formatDate(author.joinedAt)}
                </p>
              </div>
            </div>
          ) : (
            <p className="muted">No additional author information available</p>
          )}
        </div>
      </aside>
    </div>
  );
}
