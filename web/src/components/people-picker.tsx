import { useMemo } from "react";
import { personMatches, personName } from "../lib/people.ts";
import type { Person } from "../lib/types.ts";
import { Avatar } from "./avatar.tsx";
import { Combobox, type ComboOption } from "./combobox.tsx";

interface PersonOption extends ComboOption {
  person: Person;
}

function toOptions(people: Person[]): PersonOption[] {
  return people
    .map((p) => {
      const name = personName(p);
      return {
        value: p.user_id,
        label: name,
        hint: p.display_name && p.display_name !== name ? `@${p.display_name}` : undefined,
        icon: <Avatar name={name} url={p.avatar_url} />,
        person: p,
      };
    })
    .sort((a, b) => a.label.localeCompare(b.label));
}

// Searching ids would surface them as matches nobody can read; names and handles are what people know.
const matches = (option: ComboOption, search: string) => personMatches((option as PersonOption).person, search);

interface PickerProps {
  id: string;
  /** Who may be picked (already filtered by the caller: active people, admins, not yet members…). */
  people: Person[];
  placeholder?: string;
  describedBy?: string;
  required?: boolean;
  invalid?: boolean;
}

/** Pick one person by name or handle (accents ignored); the value is their Slack user id. */
export function PeoplePicker(props: PickerProps & { value: string; onChange: (userId: string) => void }) {
  const options = useMemo(() => toOptions(props.people), [props.people]);
  return (
    <Combobox
      id={props.id}
      value={props.value}
      options={options}
      onChange={props.onChange}
      matches={matches}
      placeholder={props.placeholder ?? "Search people by name"}
      describedBy={props.describedBy}
      required={props.required}
      invalid={props.invalid}
    />
  );
}

/**
 * Pick several people: the chosen ones as removable chips above a search field. `known` names chosen ids that
 * `people` does not offer (someone who left), so they still read as a name.
 */
export function PeopleMultiPicker(
  props: PickerProps & {
    value: string[];
    onChange: (userIds: string[]) => void;
    known?: ReadonlyMap<string, Person>;
    disabled?: boolean;
  },
) {
  const { value, onChange, people, known, disabled } = props;
  const byId = useMemo(() => new Map(people.map((p) => [p.user_id, p])), [people]);
  const options = useMemo(() => toOptions(people.filter((p) => !value.includes(p.user_id))), [people, value]);
  return (
    <div className="people-multi">
      {value.length > 0 ? (
        <ul className="chips" aria-label="Chosen people">
          {value.map((userId) => {
            const person = byId.get(userId) ?? known?.get(userId);
            const name = personName(person);
            return (
              <li key={userId} className="chip">
                <Avatar name={name} url={person?.avatar_url} size={20} />
                <span>{name}</span>
                {disabled ? null : (
                  <button
                    type="button"
                    className="chip-remove"
                    aria-label={`Remove ${name}`}
                    onClick={() => onChange(value.filter((v) => v !== userId))}
                  >
                    ×
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      ) : null}
      {disabled ? null : (
        <Combobox
          id={props.id}
          value=""
          options={options}
          onChange={(userId) => onChange([...value, userId])}
          matches={matches}
          placeholder={props.placeholder ?? "Add someone: search by name"}
          describedBy={props.describedBy}
          invalid={props.invalid}
        />
      )}
    </div>
  );
}
