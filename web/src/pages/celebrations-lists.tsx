import { useState } from "react";
import { Empty, Notice, type NoticeMessage, QueryView } from "../components/states.tsx";
import { errorMessage } from "../lib/api.ts";
import { useAskDatesPreview, useSendAskDates, useUpcoming } from "../lib/celebrations.ts";
import { formatLongDay } from "../lib/format.ts";
import { useChannels } from "../lib/queries.ts";
import type { UpcomingCelebration } from "../lib/types.ts";

/** The Celebrations page's admin-only cards: the upcoming list and asking for missing dates. */

/** What became of a celebration's post, in words: a plan is never shown as done. */
export function postLabel(c: UpcomingCelebration, channelSet: boolean): string {
  if (c.post_status === "posted" && c.post_date) return `Posted ${formatLongDay(c.post_date)}`;
  if (!channelSet) return "Not posted: no channel set";
  if (c.post_status === "planned" && c.post_date) return `Posts on ${formatLongDay(c.post_date)}`;
  return "Not posted";
}

export function Upcoming({ channelSet }: { channelSet: boolean }) {
  const upcoming = useUpcoming(true);
  return (
    <QueryView query={upcoming} loading="Loading upcoming celebrations…">
      {(list) =>
        list.length === 0 ? (
          <Empty title="Nothing to celebrate in the next 30 days." />
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                  <th scope="col">Date</th>
                  {/* Secondary at phone width, where four columns would overflow the card. */}
                  <th scope="col" className="hide-narrow">
                    Post in Slack
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((c) => (
                  <tr key={`${c.kind}-${c.user_id}-${c.date}`}>
                    <td>{c.name}</td>
                    <td>
                      {c.kind === "birthday"
                        ? "Birthday"
                        : `Work anniversary (${c.years} year${c.years === 1 ? "" : "s"})`}
                    </td>
                    <td>{formatLongDay(c.date)}</td>
                    <td className="hide-narrow">{postLabel(c, channelSet)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      }
    </QueryView>
  );
}

export function AskDates() {
  const channels = useChannels();
  /** The message as Slack shows it: a channel mention reads as #name. */
  const readable = (text: string) =>
    text.replace(/<#([A-Z0-9]+)>/g, (_, id: string) => `#${channels.data?.find((c) => c.id === id)?.name ?? id}`);
  const preview = useAskDatesPreview(true);
  const send = useSendAskDates();
  const [notice, setNotice] = useState<NoticeMessage | undefined>();
  return (
    <QueryView query={preview} loading="Counting who is missing dates…">
      {(p) => (
        <>
          {notice ? (
            <Notice kind={notice.kind} onDismiss={() => setNotice(undefined)}>
              {notice.text}
            </Notice>
          ) : null}
          <p>
            {p.count === 0
              ? "Nobody to ask right now: everyone has their dates, opted out, or was asked in the last 30 days."
              : `${p.count} ${p.count === 1 ? "person is" : "people are"} missing a birthday or a start date.`}
          </p>
          <blockquote className="muted">{readable(p.text)}</blockquote>
          <button
            type="button"
            className="button"
            disabled={p.count === 0 || send.isPending}
            onClick={() =>
              send.mutate(undefined, {
                onSuccess: (r) =>
                  setNotice({ kind: "success", text: `Asked ${r.sent} ${r.sent === 1 ? "person" : "people"}.` }),
                onError: (err) => setNotice({ kind: "error", text: errorMessage(err) }),
              })
            }
          >
            {send.isPending ? "Sending…" : "Ask them in Slack"}
          </button>
        </>
      )}
    </QueryView>
  );
}
