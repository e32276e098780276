import { InkwellMark } from "./icons.tsx";

/** The centred card of the login and register screens. */
export function AuthCard({ title, intro, children }: { title: string; intro: string; children: React.ReactNode }) {
  return (
    <div className="container auth">
      <div className="auth__card card">
        <div className="auth__head">
          <InkwellMark size={40} />
          <h1>{title}</h1>
          <p>{intro}</p>
        </div>
        {children}
      </div>
    </div>
  );
}

/** Moves focus to the first invalid field after a failed submit (keyboard and screen reader users). */
export function focusFirstInvalid(form: HTMLFormElement | null) {
  const first = form?.querySelector<HTMLElement>("[aria-invalid='true']");
  first?.focus();
}
