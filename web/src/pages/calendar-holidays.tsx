import { type FormEvent, useState } from "react";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { Empty, Notice, type NoticeMessage } from "../components/states.tsx";
import { errorMessage } from "../lib/api.ts";
import { useDeleteHoliday, useImportHolidays, useSaveHoliday } from "../lib/celebrations.ts";
import { formatDate, formatLongDay } from "../lib/format.ts";
import type { HolidayImport, ListedHoliday } from "../lib/types.ts";

/**
 * The Calendar page's holidays: the list, adding and renaming, and the CSV import. Workspace admins and Celebrations
 * admins both manage them, but only a workspace admin's holidays skip standups, and only a workspace admin removes
 * one that does (the server decides; this page only leaves out what would be refused).
 */

export interface HolidayRole {
  /** A workspace admin or a Celebrations admin. */
  canManage: boolean;
  /** A workspace admin: their holidays skip standups, and they may remove any. */
  isWorkspaceAdmin: boolean;
}

function StandupsBadge({ skips }: { skips: boolean }) {
  return skips ? (
    <span className="badge badge-admin">Skips standups</span>
  ) : (
    <span className="badge">Celebrations only</span>
  );
}

export function HolidayList({ list, role }: { list: ListedHoliday[]; role: HolidayRole }) {
  const save = useSaveHoliday();
  const remove = useDeleteHoliday();
  const [date, setDate] = useState("");
  const [name, setName] = useState("");
  const [notice, setNotice] = useState<NoticeMessage | undefined>();
  const [deleting, setDeleting] = useState<ListedHoliday | undefined>();
  const { canManage, isWorkspaceAdmin } = role;
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
                  <td>
                    {h.name}
                    <br />
                    <StandupsBadge skips={h.skips_standups} />
                  </td>
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
                        Rename<span className="sr-only"> {h.name}</span>
                      </button>
                      {isWorkspaceAdmin || !h.skips_standups ? (
                        <>
                          {" "}
                          <button
                            type="button"
                            className="button-link"
                            disabled={remove.isPending}
                            onClick={() => {
                              remove.reset();
                              setDeleting(h);
                            }}
                          >
                            Delete<span className="sr-only"> {h.name}</span>
                          </button>
                        </>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={deleting !== undefined}
        title={`Delete ${deleting?.name ?? "this holiday"}?`}
        confirmLabel="Delete holiday"
        danger
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => {
          const h = deleting;
          if (!h) return;
          remove.mutate(h.date, {
            onSuccess: () => {
              setDeleting(undefined);
              setNotice({ kind: "success", text: `Removed ${h.name}.` });
            },
          });
        }}
        onCancel={() => setDeleting(undefined)}
      >
        <p>
          {deleting ? formatLongDay(deleting.date) : ""} becomes an ordinary day:{" "}
          {deleting?.skips_standups ? "standups run on it again (on their usual days) and " : ""}Celebrations post on it
          as on any other day. To keep it a holiday, add it again.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** Rows the import would write: new and renamed ones, and those a workspace admin's import makes skip standups. */
function toWrite(result: HolidayImport, existing: ListedHoliday[]): number {
  const before = new Map(existing.map((h) => [h.date, h.skips_standups]));
  return result.rows.filter(
    (r) =>
      r.status === "ready" ||
      r.status === "renamed" ||
      (r.status === "unchanged" && r.skips_standups === true && before.get(r.date) === false),
  ).length;
}

export function ImportForm({ existing }: { existing: ListedHoliday[] }) {
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
              : { kind: "success", text: `Imported: ${r.written} holiday${r.written === 1 ? "" : "s"} saved.` },
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
  const pending = result?.preview ? toWrite(result, existing) : 0;
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
      {pending > 0 ? (
        <button type="button" className="button button-primary" disabled={run.isPending} onClick={() => go(false)}>
          Import {pending}
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
                  <th scope="col" className="hide-narrow">
                    Line
                  </th>
                  <th scope="col">Date</th>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {result.rows.map((r) => (
                  <tr key={r.line}>
                    <td className="hide-narrow">{r.line}</td>
                    <td>{formatDate(r.date)}</td>
                    <td>{r.name}</td>
                    <td>
                      {r.error ? `${r.status}: ${r.error}` : r.status}
                      {r.skips_standups === null ? null : (
                        <>
                          <br />
                          <StandupsBadge skips={r.skips_standups} />
                        </>
                      )}
                    </td>
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
