import { type ChangeEvent, type FormEvent, useMemo, useState } from "react";
import { PageHeader } from "../components/layout.tsx";
import { Empty, FormError, Notice, type NoticeMessage, QueryView } from "../components/states.tsx";
import { formatDate } from "../lib/format.ts";
import { useImportProfiles, useSaveMemberProfile } from "../lib/mutations.ts";
import { usePersonName } from "../lib/people.ts";
import { useProfiles } from "../lib/queries.ts";
import type { MemberProfile, ProfileImportResult } from "../lib/types.ts";
import { birthdayLabel, ProfileForm } from "./profile-form.tsx";

const PAGE = 100;
/** A CSV file bigger than this cannot be sent (the server takes 1 MB bodies). */
const MAX_FILE_BYTES = 900_000;

const STATUS_LABEL: Record<ProfileImportResult["rows"][number]["status"], string> = {
  ready: "Ready",
  unchanged: "Unchanged",
  kept: "Kept (member's own profile, left whole)",
  unmatched: "No member",
  invalid: "Invalid",
};

function EditMember({ member, onDone }: { member: MemberProfile; onDone: (text?: string) => void }) {
  const save = useSaveMemberProfile();
  return (
    <section className="card" aria-labelledby="edit-profile-title">
      <h2 id="edit-profile-title">Edit {member.name}'s profile</h2>
      <ProfileForm
        profile={member}
        celebrateLocked={!member.celebrate}
        saving={save.isPending}
        error={save.error}
        onCancel={() => onDone()}
        onSave={(fields) =>
          save.mutate(
            { userId: member.user_id, fields },
            { onSuccess: () => onDone(`Saved ${member.name}'s profile.`) },
          )
        }
      />
    </section>
  );
}

function ImportResultView({ result }: { result: ProfileImportResult }) {
  const c = result.counts;
  const nameOf = usePersonName();
  return (
    <div aria-live="polite">
      <p>
        {result.preview ? "Preview: nothing saved yet. " : `Imported: ${c.written} saved. `}
        {c.ready} ready · {c.unchanged} unchanged · {c.kept} kept · {c.unmatched} without a member · {c.invalid} invalid
      </p>
      {result.rows.length > 0 ? (
        <div className="table-wrap">
          <table className="table">
            <caption className="sr-only">Rows of the CSV and what the import does with each</caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">E-mail</th>
                <th scope="col">Status</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {result.rows.slice(0, 500).map((r) => (
                <tr key={r.line} data-status={r.status}>
                  <td>{r.line}</td>
                  <td>{r.email || <span className="muted">–</span>}</td>
                  <td>{STATUS_LABEL[r.status]}</td>
                  <td>{r.error ?? (r.user_id ? nameOf(r.user_id) : "")}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {result.rows.length > 500 ? <p className="muted">The first 500 of {result.rows.length} rows.</p> : null}
        </div>
      ) : null}
    </div>
  );
}

function ImportCard() {
  const run = useImportProfiles();
  const [csv, setCsv] = useState("");
  const [overwrite, setOverwrite] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const [result, setResult] = useState<ProfileImportResult | undefined>();
  /** The text and setting the shown preview is of: Import needs a preview of exactly what it sends. */
  const [previewed, setPreviewed] = useState<{ csv: string; overwrite: boolean } | undefined>();

  const send = (preview: boolean) => {
    setProblem(undefined);
    run.mutate(
      { csv, preview, overwrite },
      {
        onSuccess: (r) => {
          setResult(r);
          setPreviewed(preview ? { csv, overwrite } : undefined);
        },
        onError: () => setResult(undefined),
      },
    );
  };
  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) return setProblem("The file is too large: at most about 900 KB (5,000 rows).");
    setCsv(await file.text());
    setResult(undefined);
  };
  const canImport = previewed !== undefined && previewed.csv === csv && previewed.overwrite === overwrite;
  return (
    <section className="card" aria-labelledby="import-title">
      <h2 id="import-title">Import birthdays and start dates</h2>
      <form
        noValidate
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          send(true);
        }}
      >
        <div className="field">
          <label htmlFor="import-csv">CSV</label>
          <textarea
            id="import-csv"
            className="input"
            rows={6}
            spellCheck={false}
            value={csv}
            placeholder={"email,birthday,start_date\nada@example.com,12-10,2021-04-01"}
            onChange={(e) => setCsv(e.target.value)}
            aria-describedby="import-help"
          />
          <p id="import-help" className="field-help">
            Header <code>email,birthday,start_date</code>; birthday as MM-DD, start date as YYYY-MM-DD; an empty cell
            leaves that field as it is. Members are matched by their Slack e-mail address. At most 5,000 rows.
          </p>
        </div>
        <div className="field">
          <label htmlFor="import-file">Or choose a file</label>
          <input id="import-file" type="file" accept=".csv,text/csv" onChange={(e) => void onFile(e)} />
        </div>
        <div className="field">
          <div className="field-check">
            <input
              id="import-overwrite"
              type="checkbox"
              checked={overwrite}
              onChange={(e) => setOverwrite(e.target.checked)}
            />
            <label htmlFor="import-overwrite">Also replace dates members entered themselves</label>
          </div>
        </div>
        <FormError error={problem ?? run.error} />
        <div className="form-actions">
          <button type="submit" className="button" disabled={run.isPending || !csv.trim()}>
            Preview
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={run.isPending || !canImport}
            onClick={() => send(false)}
          >
            Import
          </button>
        </div>
      </form>
      {result ? <ImportResultView result={result} /> : null}
    </section>
  );
}

export function ProfilesPage() {
  const profiles = useProfiles();
  const [filter, setFilter] = useState("");
  const [shown, setShown] = useState(PAGE);
  const [editing, setEditing] = useState<MemberProfile | undefined>();
  const [notice, setNotice] = useState<NoticeMessage | undefined>();
  const filtered = useMemo(() => {
    const q = filter.trim().toLowerCase();
    const list = [...(profiles.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));
    return q ? list.filter((p) => `${p.name} ${p.email} ${p.user_id} ${p.role}`.toLowerCase().includes(q)) : list;
  }, [profiles.data, filter]);
  return (
    <>
      <PageHeader title="Profiles" lead="Every current member's birthday, start date and details, and a CSV import." />
      {notice ? (
        <Notice kind={notice.kind} onDismiss={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      ) : null}
      {editing ? (
        <EditMember
          key={editing.user_id}
          member={editing}
          onDone={(text) => {
            setEditing(undefined);
            if (text) setNotice({ kind: "success", text });
          }}
        />
      ) : null}
      <QueryView query={profiles} loading="Loading profiles…">
        {(list) =>
          list.length === 0 ? (
            <Empty title="No members yet" />
          ) : (
            <section className="panel" aria-labelledby="profiles-title">
              <div className="panel-head">
                <h2 id="profiles-title">
                  {list.length} {list.length === 1 ? "member" : "members"}
                </h2>
              </div>
              <div className="field">
                <label htmlFor="profile-filter">Search profiles</label>
                <input
                  id="profile-filter"
                  type="search"
                  className="input"
                  value={filter}
                  onChange={(e) => {
                    setFilter(e.target.value);
                    setShown(PAGE);
                  }}
                  placeholder="Name, e-mail, user id or role"
                />
              </div>
              <div className="table-wrap">
                <table className="table">
                  <caption className="sr-only">Members' profiles</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Birthday</th>
                      <th scope="col">Start date</th>
                      <th scope="col" className="hide-narrow">
                        Role
                      </th>
                      <th scope="col">Celebrate</th>
                      <th scope="col">
                        <span className="sr-only">Edit</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {filtered.slice(0, shown).map((p) => (
                      <tr key={p.user_id}>
                        <th scope="row">
                          <span className="member-name">{p.name}</span>
                          <span className="member-meta">
                            {p.email}
                            {p.updated_at ? (p.set_by_admin ? " · set by an admin" : " · written by them") : ""}
                          </span>
                        </th>
                        <td>{birthdayLabel(p)}</td>
                        <td>{p.start_date ? formatDate(p.start_date) : "–"}</td>
                        <td className="hide-narrow">{p.role || <span className="muted">–</span>}</td>
                        <td>{p.celebrate ? "Yes" : "No"}</td>
                        <td>
                          <button
                            type="button"
                            className="button button-small"
                            aria-label={`Edit ${p.name}'s profile`}
                            onClick={() => {
                              setNotice(undefined);
                              setEditing(p);
                              window.scrollTo(0, 0);
                            }}
                          >
                            Edit
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {filtered.length > shown ? (
                <div className="more">
                  <span className="muted">
                    Showing {shown} of {filtered.length}
                  </span>
                  <button type="button" className="button" onClick={() => setShown((n) => n + PAGE)}>
                    Show more
                  </button>
                </div>
              ) : null}
            </section>
          )
        }
      </QueryView>
      <ImportCard />
    </>
  );
}
