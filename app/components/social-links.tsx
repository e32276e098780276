import { DiscordIcon, InstagramIcon, XIcon } from "./icons.tsx";

/** The community's social accounts (header for guests, footer for everyone). */
export const SOCIAL_LINKS = [
  { label: "Inkwell on X", href: "https://x.com/inkwellcomics", Icon: XIcon },
  { label: "Inkwell on Instagram", href: "https://www.instagram.com/inkwellcomics", Icon: InstagramIcon },
  { label: "Inkwell on Discord", href: "https://discord.gg/inkwellcomics", Icon: DiscordIcon },
] as const;

export function SocialLinks({ className = "" }: { className?: string }) {
  return (
    <ul className={`social ${className}`}>
      {SOCIAL_LINKS.map(({ label, href, Icon }) => (
        <li key={href}>
          <a href={href} aria-label={label} title={label} rel="noopener noreferrer" target="_blank">
            <Icon />
          </a>
        </li>
      ))}
    </ul>
  );
}
