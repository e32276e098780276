// Small inline icons. Decorative unless given a label: buttons and links carry their own text.
type IconProps = { className?: string; size?: number };

const svg = (path: React.ReactNode, { className = "icon", size = 18 }: IconProps, fill = false) => (
  <svg
    className={className}
    width={size}
    height={size}
    viewBox="0 0 24 24"
    aria-hidden="true"
    focusable="false"
    fill={fill ? "currentColor" : "none"}
    stroke={fill ? "none" : "currentColor"}
    strokeWidth="2"
    strokeLinecap="round"
    strokeLinejoin="round"
  >
    {path}
  </svg>
);

export const HeartIcon = ({ filled, ...p }: IconProps & { filled?: boolean }) =>
  svg(
    <path d="M12 21s-7.5-4.6-9.6-9.2C.9 8.4 3 4.5 6.8 4.5c2.1 0 3.6 1.1 5.2 3 1.6-1.9 3.1-3 5.2-3 3.8 0 5.9 3.9 4.4 7.3C19.5 16.4 12 21 12 21z" />,
    p,
    filled,
  );
export const UsersIcon = (p: IconProps) =>
  svg(
    <>
      <circle cx="9" cy="8" r="3.5" />
      <path d="M2.5 20c.6-3.6 3.3-5.5 6.5-5.5s5.9 1.9 6.5 5.5" />
      <path d="M16 4.8a3.5 3.5 0 0 1 0 6.4M18.5 14.8c1.7.8 2.8 2.5 3 5.2" />
    </>,
    p,
  );
export const CalendarIcon = (p: IconProps) =>
  svg(
    <>
      <rect x="3.5" y="5" width="17" height="15.5" rx="2" />
      <path d="M3.5 10h17M8 3v4M16 3v4" />
    </>,
    p,
  );
export const ArrowLeftIcon = (p: IconProps) => svg(<path d="M19 12H5m6-6-6 6 6 6" />, p);
export const ArrowRightIcon = (p: IconProps) => svg(<path d="M5 12h14m-6-6 6 6-6 6" />, p);
export const SearchIcon = (p: IconProps) =>
  svg(
    <>
      <circle cx="11" cy="11" r="6.5" />
      <path d="m20 20-4.2-4.2" />
    </>,
    p,
  );
export const PlusIcon = (p: IconProps) => svg(<path d="M12 5v14M5 12h14" />, p);
export const CheckIcon = (p: IconProps) => svg(<path d="m5 12.5 4.5 4.5L19 7.5" />, p);
export const BookIcon = (p: IconProps) =>
  svg(
    <>
      <path d="M4 5.5A2.5 2.5 0 0 1 6.5 3H20v15H6.5A2.5 2.5 0 0 0 4 20.5z" />
      <path d="M4 20.5A2.5 2.5 0 0 0 6.5 23H20v-5" />
    </>,
    p,
  );

export const InkwellMark = ({ size = 28 }: { size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
    <rect x="1" y="1" width="30" height="30" rx="9" fill="var(--ink)" />
    <path d="M16 6c3.5 5 6.5 8.6 6.5 12.3A6.5 6.5 0 0 1 16 25a6.5 6.5 0 0 1-6.5-6.7C9.5 14.6 12.5 11 16 6z" fill="var(--accent-bright)" />
    <circle cx="13.6" cy="18.6" r="1.8" fill="#fff" opacity=".85" />
  </svg>
);

// Brand glyphs, simplified.
export const XIcon = (p: IconProps) => svg(<path d="M4 4l16 16M20 4 4 20" />, p);
export const InstagramIcon = (p: IconProps) =>
  svg(
    <>
      <rect x="3.5" y="3.5" width="17" height="17" rx="5" />
      <circle cx="12" cy="12" r="4" />
      <circle cx="17.3" cy="6.7" r=".6" fill="currentColor" />
    </>,
    p,
  );
export const DiscordIcon = (p: IconProps) =>
  svg(
    <>
      <path d="M7 7.5c3.3-1.3 6.7-1.3 10 0M7 16.5c3.3 1.3 6.7 1.3 10 0" />
      <path d="M7 7.5 5 16.5l2 1.5M17 7.5l2 9-2 1.5" />
      <circle cx="9.5" cy="12.5" r="1.2" fill="currentColor" />
      <circle cx="14.5" cy="12.5" r="1.2" fill="currentColor" />
    </>,
    p,
  );
export const PagesIcon = (p: IconProps) =>
  svg(
    <>
      <rect x="7" y="3" width="13" height="16" rx="2" />
      <path d="M4 7v12a2 2 0 0 0 2 2h10" />
      <path d="M11 8h5M11 12h5" />
    </>,
    p,
  );
export const PenIcon = (p: IconProps) =>
  svg(
    <>
      <path d="M4 20l4.5-1 10-10a2.1 2.1 0 0 0-3-3l-10 10z" />
      <path d="M13.5 7.5l3 3" />
    </>,
    p,
  );
