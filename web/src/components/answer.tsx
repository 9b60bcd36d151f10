import { emojify } from "../../../src/contract/emoji.ts";
import { readableSlackText, type SlackNames } from "../../../src/contract/slack-text.ts";
import { formatTimeOfDay, moodLabel } from "../lib/format.ts";
import { FORMER_MEMBER, useSlackNames } from "../lib/people.ts";
import type { StandupResponse } from "../lib/types.ts";

/** The server decides what counts as a blocker; older shapes without the flag fall back to "not empty". */
export function hasBlocker(r: StandupResponse): boolean {
  if (typeof r.has_blocker === "boolean") return r.has_blocker;
  return /\S/.test(r.blockers) && !/^(none|no|n\/a|nope|-|nothing)\.?$/i.test(r.blockers.trim());
}

export function Mood({ emoji }: { emoji: string }) {
  if (!emoji) return null;
  const label = moodLabel(emoji);
  return (
    <span className="mood" title={label ? `Mood: ${label}` : "Mood"}>
      <span aria-hidden="true">{emoji}</span>
      <span className="mood-label">{label || emoji}</span>
    </span>
  );
}

function Field({
  label,
  text,
  blocker,
  anonymous,
  names,
}: {
  label: string;
  text: string;
  blocker?: boolean;
  anonymous?: boolean;
  names: SlackNames;
}) {
  return (
    <div className={`answer-field${blocker ? " answer-field-blocker" : ""}`}>
      <dt>
        {emojify(label)}
        {blocker ? <span className="badge badge-blocker">Blocker</span> : null}
      </dt>
      <dd>
        {anonymous ? (
          <span className="muted">Anonymous: shown only in the totals</span>
        ) : text.trim() ? (
          emojify(readableSlackText(text, names))
        ) : (
          <span className="muted">No answer</span>
        )}
      </dd>
    </div>
  );
}

/**
 * One member's answer: every question the run asked with its answer (the blocker question's answer marked when
 * it reports a blocker), the standup it belongs to, and the mood.
 */
export function AnswerCard({ response, showStandup = true }: { response: StandupResponse; showStandup?: boolean }) {
  const blocker = hasBlocker(response);
  const time = formatTimeOfDay(response.submitted_at);
  // Mentions in answers read as "@Name" and "#channel", never as Slack ids.
  const names = useSlackNames();
  return (
    <article className={`answer${blocker ? " answer-has-blocker" : ""}`}>
      <header className="answer-head">
        <h3 className="answer-name">{response.real_name || FORMER_MEMBER}</h3>
        <Mood emoji={response.mood} />
        {time ? (
          <time className="muted answer-time" dateTime={response.submitted_at}>
            {time}
          </time>
        ) : null}
        {response.late ? (
          <span className="badge" title="Answered after the standup closed, before its next run">
            Late
          </span>
        ) : null}
        {response.via === "mcp" ? (
          <span className="badge" title="Given (or last edited) from an AI client through MCP">
            via MCP
          </span>
        ) : null}
        {showStandup && response.standup_name ? (
          <span className="muted answer-standup">{response.standup_name}</span>
        ) : null}
      </header>
      <dl className="answer-fields">
        {response.answers.map((a, i) => (
          <Field
            // biome-ignore lint/suspicious/noArrayIndexKey: a response's answers never change order; the position is the question
            key={i}
            label={a.question}
            text={a.answer}
            blocker={blocker && i + 1 === response.blocker_question}
            anonymous={a.anonymous}
            names={names}
          />
        ))}
      </dl>
    </article>
  );
}
