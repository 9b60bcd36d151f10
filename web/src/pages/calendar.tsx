import { type FormEvent, useState } from "react";
import { PageHeader } from "../components/layout.tsx";
import { Empty, Notice, type NoticeMessage, QueryView } from "../components/states.tsx";
import { errorMessage } from "../lib/api.ts";
import {
  useCelebrationSettings,
  useDeleteHoliday,
  useHolidays,
  useImportHolidays,
  useSaveCalendar,
  useSaveHoliday,
} from "../lib/celebrations.ts";
import { formatLongDay } from "../lib/format.ts";
import { useMe } from "../lib/queries.ts";
import type { CelebrationSettings, Holiday, HolidayImport } from "../lib/types.ts";
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

function HolidayList({ list, canManage }: { list: Holiday[]; canManage: boolean }) {
  const save = useSaveHoliday();
  const remove = useDeleteHoliday();
  const [date, setDate] = useState("");
  const [name, setName] = useState("");
  const [notice, setNotice] = useState<NoticeMessage | undefined>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(
      { date, name: name.trim() },
      {
        onSuccess: (h) => {
          setNotice({ kind: "success", text: `Saved ${h.name} on ${formatLongDay(h.date)}.` });
          setDate("");
          setName("");
        },
        onError: (err) => setNotice({ kind: "error", text: errorMessage(err) }),
      },
    );
  };
  return (
    <>
      {notice ? (
        <Notice kind={notice.kind} onDismiss={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      ) : null}
      {canManage ? (
        <form className="toolbar" onSubmit={submit} noValidate aria-label="Add or rename a holiday">
          <div className="field">
            <label htmlFor="holiday-date">Date</label>
            <input
              id="holiday-date"
              type="date"
              className="input"
              value={date}
              onChange={(e) => setDate(e.target.value)}
            />
          </div>
          <div className="field field-grow">
            <label htmlFor="holiday-name">Name</label>
            <input id="holiday-name" className="input" value={name} onChange={(e) => setName(e.target.value)} />
          </div>
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            Add or rename
          </button>
        </form>
      ) : null}
      {list.length === 0 ? (
        <Empty title="No holidays yet." />
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Holiday</th>
                {canManage ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {list.map((h) => (
                <tr key={h.date}>
                  <td>{formatLongDay(h.date)}</td>
                  <td>{h.name}</td>
                  {canManage ? (
                    <td>
                      <button
                        type="button"
                        className="button-link"
                        onClick={() => {
                          setDate(h.date);
                          setName(h.name);
                        }}
                      >
                        Rename {h.name}
                      </button>{" "}
                      <button
                        type="button"
                        className="button-link"
                        disabled={remove.isPending}
                        onClick={() =>
                          remove.mutate(h.date, {
                            onSuccess: () => setNotice({ kind: "success", text: `Removed ${h.name}.` }),
                            onError: (err) => setNotice({ kind: "error", text: errorMessage(err) }),
                          })
                        }
                      >
                        Delete {h.name}
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function ImportForm() {
  const run = useImportHolidays();
  const [csv, setCsv] = useState("");
  const [result, setResult] = useState<HolidayImport | undefined>();
  const [notice, setNotice] = useState<NoticeMessage | undefined>();
  const go = (preview: boolean) =>
    run.mutate(
      { csv, preview },
      {
        onSuccess: (r) => {
          setResult(r);
          setNotice(
            r.preview
              ? undefined
              : {
                  kind: "success",
                  text: `Imported: ${r.written} holiday${r.written === 1 ? "" : "s"} added or renamed.`,
                },
          );
        },
        onError: (err) => {
          setResult(undefined);
          setNotice({ kind: "error", text: errorMessage(err) });
        },
      },
    );
  const readFile = async (file: File | undefined) => {
    if (file) setCsv(await file.text());
  };
  return (
    <>
      {notice ? (
        <Notice kind={notice.kind} onDismiss={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      ) : null}
      <div className="field">
        <label htmlFor="holiday-csv">CSV with the header date,name (at most 5,000 rows)</label>
        <textarea
          id="holiday-csv"
          className="input"
          rows={6}
          value={csv}
          onChange={(e) => {
            setCsv(e.target.value);
            setResult(undefined);
          }}
        />
        <input
          type="file"
          accept=".csv,text/csv"
          aria-label="Choose a CSV file"
          onChange={(e) => void readFile(e.target.files?.[0])}
        />
      </div>
      <button type="button" className="button" disabled={!csv || run.isPending} onClick={() => go(true)}>
        Preview
      </button>{" "}
      {result?.preview && result.ready + result.renamed > 0 ? (
        <button type="button" className="button button-primary" disabled={run.isPending} onClick={() => go(false)}>
          Import {result.ready + result.renamed}
        </button>
      ) : null}
      {result ? (
        <>
          <p className="muted" aria-live="polite">
            {result.ready} new · {result.renamed} renamed · {result.unchanged} unchanged · {result.invalid} invalid
          </p>
          <div className="table-wrap">
            <table className="table">
              <caption className="sr-only">Import preview</caption>
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col">Date</th>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {result.rows.map((r) => (
                  <tr key={r.line}>
                    <td>{r.line}</td>
                    <td>{r.date}</td>
                    <td>{r.name}</td>
                    <td>{r.error ? `${r.status}: ${r.error}` : r.status}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </>
  );
}

export function CalendarPage() {
  const settings = useCelebrationSettings();
  const holidays = useHolidays();
  // Holidays skip every standup, so only workspace admins change them (the server refuses anyone else);
  // Celebrations admins keep the timezone and working days above.
  const canManageHolidays = useMe().data?.role === "admin";
  const mayManageCalendar = Boolean(settings.data?.can_manage);
  const [notice, setNotice] = useState<NoticeMessage | undefined>();
  return (
    <>
      <PageHeader
        title="Calendar"
        lead="The workspace's timezone, working days and holidays. Standups skip holidays; celebrations move before them."
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
        {mayManageCalendar && !canManageHolidays ? (
          <p className="muted">Only workspace admins can add or remove holidays: every standup skips them.</p>
        ) : null}
        <QueryView query={holidays} loading="Loading holidays…">
          {(list) => <HolidayList list={list} canManage={canManageHolidays} />}
        </QueryView>
      </section>
      {canManageHolidays ? (
        <section className="card" aria-labelledby="calendar-import-title">
          <h2 id="calendar-import-title">Import holidays</h2>
          <ImportForm />
        </section>
      ) : null}
    </>
  );
}
