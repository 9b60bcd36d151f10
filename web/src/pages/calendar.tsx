import { type FormEvent, useState } from "react";
import { PageHeader } from "../components/layout.tsx";
import { Notice, type NoticeMessage, QueryView } from "../components/states.tsx";
import { errorMessage } from "../lib/api.ts";
import { useCelebrationSettings, useHolidays, useSaveCalendar } from "../lib/celebrations.ts";
import { useMe } from "../lib/queries.ts";
import type { CelebrationSettings } from "../lib/types.ts";
import { HolidayList, ImportForm } from "./calendar-holidays.tsx";
import { CalendarFields, WEEKDAYS } from "./celebrations.tsx";

function ZoneForm({
  settings,
  setNotice,
}: {
  settings: CelebrationSettings;
  setNotice: (n: NoticeMessage | undefined) => void;
}) {
  const save = useSaveCalendar();
  const [timezone, setTimezone] = useState(settings.timezone);
  const [days, setDays] = useState<string[]>(settings.working_days);
  const canSave = settings.can_manage;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (days.length === 0) return setNotice({ kind: "error", text: "Choose at least one working day." });
    save.mutate(
      { timezone: timezone.trim(), working_days: WEEKDAYS.filter((d) => days.includes(d)) },
      {
        onSuccess: () => setNotice({ kind: "success", text: "Calendar saved." }),
        onError: (err) => setNotice({ kind: "error", text: errorMessage(err) }),
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate>
      <CalendarFields
        timezone={timezone}
        onTimezone={setTimezone}
        days={days}
        onDays={setDays}
        disabled={!canSave || save.isPending}
        idPrefix="calendar"
      />
      {canSave ? (
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save calendar"}
        </button>
      ) : (
        <p className="muted">Only workspace admins and Celebrations admins can change the calendar.</p>
      )}
    </form>
  );
}

export function CalendarPage() {
  const settings = useCelebrationSettings();
  const holidays = useHolidays();
  // Both kinds of admin keep holidays, but only a workspace admin's skip standups (the server decides from the role).
  const role = { canManage: Boolean(settings.data?.can_manage), isWorkspaceAdmin: useMe().data?.role === "admin" };
  const [notice, setNotice] = useState<NoticeMessage | undefined>();
  return (
    <>
      <PageHeader
        title="Calendar"
        lead="The workspace's timezone, working days and holidays. Celebrations move before every holiday; standups skip the ones workspace admins add."
      />
      <section className="card" aria-labelledby="calendar-zone-title">
        <h2 id="calendar-zone-title">Timezone and working days</h2>
        {notice ? (
          <Notice kind={notice.kind} onDismiss={() => setNotice(undefined)}>
            {notice.text}
          </Notice>
        ) : null}
        <QueryView query={settings} loading="Loading the calendar…">
          {(s) => <ZoneForm key={JSON.stringify(s)} settings={s} setNotice={setNotice} />}
        </QueryView>
      </section>
      <section className="card" aria-labelledby="calendar-holidays-title">
        <h2 id="calendar-holidays-title">Holidays</h2>
        {role.canManage && !role.isWorkspaceAdmin ? (
          <p className="muted">
            The holidays you add move Celebrations only: standups still run on them. Only workspace admins add holidays
            that skip standups, or remove them.
          </p>
        ) : null}
        <QueryView query={holidays} loading="Loading holidays…">
          {(list) => <HolidayList list={list} role={role} />}
        </QueryView>
      </section>
      {role.canManage ? (
        <section className="card" aria-labelledby="calendar-import-title">
          <h2 id="calendar-import-title">Import holidays</h2>
          <ImportForm existing={holidays.data ?? []} />
        </section>
      ) : null}
    </>
  );
}
