import { useMemo } from "react";
import { foldText } from "../lib/people.ts";
import type { Channel } from "../lib/types.ts";
import { Combobox, type ComboOption } from "./combobox.tsx";

/** "#general", or words instead of an id for a channel Slack no longer lists. */
export function channelName(channels: Channel[] | undefined, id: string): string {
  const name = channels?.find((c) => c.id === id)?.name;
  return name ? `#${name}` : "a channel Upbeat cannot see";
}

/** Pick a channel by name; the value is its id. A chosen channel Slack no longer lists stays selectable. */
export function ChannelPicker(props: {
  id: string;
  value: string;
  onChange: (channelId: string) => void;
  channels: Channel[] | undefined;
  placeholder?: string;
  describedBy?: string;
  required?: boolean;
  invalid?: boolean;
  disabled?: boolean;
}) {
  const { value, channels } = props;
  const options = useMemo<ComboOption[]>(() => {
    const list: ComboOption[] = (channels ?? []).map((c) => ({ value: c.id, label: `#${c.name}` }));
    if (value && !list.some((o) => o.value === value)) {
      list.unshift({ value, label: "A channel Upbeat cannot see", hint: "current" });
    }
    return list;
  }, [channels, value]);
  return (
    <Combobox
      id={props.id}
      value={value}
      options={options}
      onChange={props.onChange}
      matches={(option, search) => foldText(option.label).includes(foldText(search.trim().replace(/^#/, "")))}
      placeholder={props.placeholder ?? "Search channels"}
      describedBy={props.describedBy}
      required={props.required}
      invalid={props.invalid}
      disabled={props.disabled}
    />
  );
}
