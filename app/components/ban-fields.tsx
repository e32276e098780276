import { Field } from "./field.tsx";

/**
 * The reason and the number of days of a hub ban or a site suspension (docs/api.md "Bans, suspensions and the mod log"; empty days: no end), with the
 * values and errors of the last post.
 */
export function BanFields({
  noun,
  values,
  errors,
}: {
  /** What has no end when the days are left empty: "ban", "suspension". */
  noun: string;
  values: { reason: string; days: string } | undefined;
  errors: { reason?: string; days?: string } | undefined;
}) {
  return (
    <>
      <Field label="Reason" name="reason" required defaultValue={values?.reason} error={errors?.reason} />
      <Field
        label="Days"
        name="days"
        inputMode="numeric"
        hint={`Leave empty for a ${noun} without an end.`}
        defaultValue={values?.days}
        error={errors?.days}
      />
    </>
  );
}
