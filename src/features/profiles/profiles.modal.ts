import type { KnownBlock, ModalView, PlainTextOption } from "@slack/types";
import { fitModal } from "../../chat/block-fit.ts";
import { MAX_ASK_ME_ABOUT, MAX_LOCATION, MAX_ROLE } from "./profiles.input.ts";
import type { ProfileView } from "./profiles.service.ts";

/** The button that opens the profile modal (App Home, the Celebrations ask-for-dates DM …). */
export const OPEN_PROFILE_ACTION = "open_profile_modal";
export const PROFILE_MODAL_CALLBACK = "profile_modal";
/** The month and day selects' "no birthday" choice. */
const NONE = "none";

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

const option = (text: string, value: string): PlainTextOption => ({ text: { type: "plain_text", text }, value });

/** A button for any message or view: clicking it opens the member's profile modal. */
export function profileButton(text = "Edit my profile") {
  return {
    type: "button" as const,
    text: { type: "plain_text" as const, text },
    action_id: OPEN_PROFILE_ACTION,
    value: "profile",
  };
}

/** The profile modal, filled in with what the member has. */
export function profileModal(p: ProfileView): ModalView {
  const monthOptions = [option("No birthday", NONE), ...MONTHS.map((m, i) => option(m, String(i + 1)))];
  const dayOptions = [
    option("No birthday", NONE),
    ...Array.from({ length: 31 }, (_, i) => option(String(i + 1), String(i + 1))),
  ];
  const celebrateOption = option("Celebrate my birthday and work anniversary in the channel", "yes");
  const textInput = (block: string, label: string, max: number, value: string, multiline = false): KnownBlock => ({
    type: "input",
    block_id: block,
    optional: true,
    label: { type: "plain_text", text: label },
    element: {
      type: "plain_text_input",
      action_id: block,
      max_length: max,
      multiline,
      ...(value ? { initial_value: value } : {}),
    },
  });
  const blocks: KnownBlock[] = [
    {
      type: "context",
      elements: [{ type: "mrkdwn", text: "Only the month and day of your birthday are kept, never the year." }],
    },
    {
      type: "input",
      block_id: "birth_month",
      optional: true,
      label: { type: "plain_text", text: "Birthday: month" },
      element: {
        type: "static_select",
        action_id: "birth_month",
        placeholder: { type: "plain_text", text: "Month" },
        options: monthOptions,
        ...(p.birth_month ? { initial_option: monthOptions[p.birth_month]! } : {}),
      },
    },
    {
      type: "input",
      block_id: "birth_day",
      optional: true,
      label: { type: "plain_text", text: "Birthday: day" },
      element: {
        type: "static_select",
        action_id: "birth_day",
        placeholder: { type: "plain_text", text: "Day" },
        options: dayOptions,
        ...(p.birth_day ? { initial_option: dayOptions[p.birth_day]! } : {}),
      },
    },
    {
      type: "input",
      block_id: "start_date",
      optional: true,
      label: { type: "plain_text", text: "First day at work" },
      element: {
        type: "datepicker",
        action_id: "start_date",
        ...(p.start_date ? { initial_date: p.start_date } : {}),
      },
    },
    textInput("role", "Role", MAX_ROLE, p.role),
    textInput("location", "Location", MAX_LOCATION, p.location),
    textInput("ask_me_about", "Ask me about", MAX_ASK_ME_ABOUT, p.ask_me_about, true),
    {
      type: "input",
      block_id: "celebrate",
      optional: true,
      label: { type: "plain_text", text: "Celebrations" },
      element: {
        type: "checkboxes",
        action_id: "celebrate",
        options: [celebrateOption],
        ...(p.celebrate ? { initial_options: [celebrateOption] } : {}),
      },
    },
  ];
  return fitModal({
    type: "modal",
    callback_id: PROFILE_MODAL_CALLBACK,
    title: { type: "plain_text", text: "My profile" },
    submit: { type: "plain_text", text: "Save" },
    close: { type: "plain_text", text: "Cancel" },
    blocks,
  });
}

type StateValue = {
  value?: string | null;
  selected_date?: string | null;
  selected_option?: { value?: string } | null;
  selected_options?: { value?: string }[] | null;
};
export type ModalValues = Record<string, Record<string, StateValue>>;

/**
 * The submitted modal as a PUT body, to go through the same validation as the dashboard. Every field is sent:
 * the modal shows them all, so what is left empty is meant empty.
 */
export function modalBody(values: ModalValues): Record<string, unknown> {
  const pick = (block: string) => values[block]?.[block];
  const number = (block: string) => {
    const v = pick(block)?.selected_option?.value;
    return v === undefined || v === NONE ? null : Number(v);
  };
  return {
    birth_month: number("birth_month"),
    birth_day: number("birth_day"),
    start_date: pick("start_date")?.selected_date ?? null,
    role: pick("role")?.value ?? "",
    location: pick("location")?.value ?? "",
    ask_me_about: pick("ask_me_about")?.value ?? "",
    celebrate: (pick("celebrate")?.selected_options ?? []).some((o) => o.value === "yes"),
  };
}
