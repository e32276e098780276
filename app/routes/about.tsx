import type { MetaFunction } from "@remix-run/node";
import { Link } from "../components/link.tsx";
import { ABOUT } from "../lib/about.ts";
import { socialMeta } from "../lib/social-meta.ts";

export const meta: MetaFunction = ({ matches }) =>
  socialMeta(matches, { title: "About · Inkwell", description: ABOUT.mission, path: "/about" });

export default function About() {
  return (
    <div className="container prose-page">
      <p className="eyebrow">About</p>
      <h1>Made for the people who make comics</h1>
      <p className="lead">{ABOUT.mission}</p>
      <h2>Your work stays yours</h2>
      <p>{ABOUT.ownership}</p>
      <h2>What you can publish</h2>
      <p>{ABOUT.whatToPublish}</p>
      <h2>Art contests</h2>
      <p>{ABOUT.contests}</p>
      <h2>Get started</h2>
      <p>
        Browse the <Link to="/hubs">hubs</Link> and <Link to="/series">series</Link>, or <Link to="/register">create an account</Link> to
        publish your own. Questions? <Link to="/contact">Contact us</Link>.
      </p>
    </div>
  );
}
