import "./kudos.css";
import { useMemo, useState } from "react";
import { emojify } from "../../../src/contract/emoji.ts";
import { readableSlackText } from "../../../src/contract/slack-text.ts";
import { PageHeader } from "../components/layout.tsx";
import { Empty, QueryView } from "../components/states.tsx";
import { formatInstant, plural } from "../lib/format.ts";
import { FORMER_MEMBER, useSlackNames } from "../lib/people.ts";
import { useKudos, useLeaderboard } from "../lib/queries.ts";
import type { Kudo, LeaderboardEntry } from "../lib/types.ts";

const PERIODS = [7, 30, 90, 365];

const HOW_TO =
  "In Slack: mention someone in a channel message with the word kudos (or @someone ++), type " +
  "/upbeat kudos @someone thanks for …, or use a standup's shout-out.";

/** Ranks with ties sharing a place: 1, 2, 2, 4. */
function ranks(entries: LeaderboardEntry[]): number[] {
  return entries.map((e) => entries.findIndex((x) => x.kudos_received === e.kudos_received) + 1);
}

function Leaderboard({ entries, days, busy }: { entries: LeaderboardEntry[]; days: number; busy: boolean }) {
  const places = ranks(entries);
  return (
    <div className="table-wrap" aria-busy={busy}>
      <table className="table">
        <caption className="sr-only">Kudos received in the last {days} days, most first</caption>
        <thead>
          <tr>
            <th scope="col" className="num">
              Rank
            </th>
            <th scope="col">Member</th>
            <th scope="col" className="num">
              Kudos
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e, i) => (
            <tr key={e.user_id}>
              <td className="num">{places[i]}</td>
              <th scope="row">{e.real_name || FORMER_MEMBER}</th>
              <td className="num">{e.kudos_received}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function KudosList({ kudos }: { kudos: Kudo[] }) {
  // Mentions in messages read as names, from the people the list already names.
  const known = useSlackNames();
  const names = useMemo(() => {
    const map = new Map<string, string>(known.people);
    for (const k of kudos) {
      map.set(k.from_user, k.from_name);
      map.set(k.to_user, k.to_name);
    }
    return { people: map, channels: known.channels };
  }, [kudos, known]);
  return (
    <ol className="kudos-list" aria-label="Recent kudos, newest first">
      {kudos.map((k) => (
        <li key={k.id} className="kudo">
          <p className="kudo-people">
            <strong>{k.from_name}</strong>
            <span className="muted"> gave kudos to </span>
            <strong>{k.to_name}</strong>
          </p>
          {k.message ? <p className="kudo-message">{emojify(readableSlackText(k.message, names))}</p> : null}
          <time className="muted kudo-time" dateTime={k.created_at}>
            {formatInstant(k.created_at)}
          </time>
        </li>
      ))}
    </ol>
  );
}

export function KudosPage() {
  const [days, setDays] = useState(30);
  const board = useLeaderboard(days);
  const recent = useKudos();
  return (
    <>
      <PageHeader title="Kudos" lead="Thanks people gave each other in Slack." />
      <div className="grid-2">
        <section className="panel" aria-labelledby="kudos-board">
          <div className="panel-head">
            <h2 id="kudos-board">Leaderboard</h2>
            <div className="field field-inline">
              <label htmlFor="kudos-period">Period</label>
              <select
                id="kudos-period"
                className="input"
                value={days}
                onChange={(e) => setDays(Number(e.target.value))}
              >
                {PERIODS.map((n) => (
                  <option key={n} value={n}>
                    Last {n} days
                  </option>
                ))}
              </select>
            </div>
          </div>
          <QueryView query={board} loading="Loading the leaderboard…">
            {(entries) =>
              entries.length === 0 ? (
                <Empty title={`No kudos in the last ${plural(days, "day")}`} />
              ) : (
                <Leaderboard entries={entries} days={days} busy={board.isFetching} />
              )
            }
          </QueryView>
        </section>
        <section className="panel" aria-labelledby="kudos-recent">
          <div className="panel-head">
            <h2 id="kudos-recent">Recent kudos</h2>
          </div>
          <QueryView query={recent} loading="Loading kudos…">
            {(list) =>
              list.length === 0 ? (
                <Empty title="No kudos yet">
                  <p>{HOW_TO}</p>
                </Empty>
              ) : (
                <KudosList kudos={list} />
              )
            }
          </QueryView>
        </section>
      </div>
    </>
  );
}
