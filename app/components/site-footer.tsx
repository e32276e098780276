import { useLocation } from "@remix-run/react";
import { Link } from "./link.tsx";
import type { AboutPreview } from "../lib/about.ts";
import { InkwellMark } from "./icons.tsx";
import { SocialLinks } from "./social-links.tsx";

const ABOUT_PREVIEW_PATHS = new Set(["/", "/home", "/login", "/register"]);

/** Social links, About, Contact and the copyright; on the home and sign-in pages also a preview of About. */
export function SiteFooter({ year, about }: { year: number; about: AboutPreview | null }) {
  const { pathname } = useLocation();
  return (
    <footer className="site-footer">
      {about && ABOUT_PREVIEW_PATHS.has(pathname) ? (
        <section className="container about-preview" aria-labelledby="about-preview-title">
          <h2 id="about-preview-title">About Inkwell</h2>
          <div className="about-preview__grid">
            <div>
              <h3>Our mission</h3>
              <p>{about.mission}</p>
            </div>
            <div>
              <h3>Your work stays yours</h3>
              <p>{about.ownership}</p>
            </div>
            <div>
              <h3>What you can publish</h3>
              <p>{about.whatToPublish}</p>
            </div>
          </div>
          <p>
            <Link to="/about">Read more about Inkwell</Link>
          </p>
        </section>
      ) : null}
      <div className="container site-footer__bar">
        <p className="site-footer__brand">
          <InkwellMark size={22} /> © {year} Inkwell
        </p>
        <nav aria-label="Footer">
          <ul className="site-footer__links">
            <li>
              <Link to="/about">About</Link>
            </li>
            <li>
              <Link to="/contact">Contact</Link>
            </li>
          </ul>
        </nav>
        <SocialLinks />
      </div>
    </footer>
  );
}
