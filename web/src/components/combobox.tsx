import { type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from "react";

export interface ComboOption {
  value: string;
  label: string;
  hint?: string;
  /** Shown before the label, e.g. a person's picture (decorative: the label names the option). */
  icon?: ReactNode;
}

interface ComboboxProps {
  id: string;
  value: string;
  options: ComboOption[];
  onChange: (value: string) => void;
  /** Whether an option matches the search; the default looks for the text in label and value. */
  matches?: (option: ComboOption, search: string) => boolean;
  placeholder?: string;
  required?: boolean;
  describedBy?: string;
  maxResults?: number;
  invalid?: boolean;
  disabled?: boolean;
}

const defaultMatches = (option: ComboOption, search: string) => {
  const q = search.trim().toLowerCase();
  return !q || option.label.toLowerCase().includes(q) || option.value.toLowerCase().includes(q);
};

/**
 * A searchable select (ARIA 1.2 combobox with a list): type to filter, arrows to move, Enter to pick,
 * Escape to close. The text field shows the chosen option's label when not searching.
 */
export function Combobox(props: ComboboxProps) {
  const { id, value, options, onChange, placeholder, required, describedBy, invalid, disabled } = props;
  const matches = props.matches ?? defaultMatches;
  const maxResults = props.maxResults ?? 60;
  const listId = useId();
  const selected = options.find((o) => o.value === value);
  const [search, setSearch] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLDivElement>(null);

  const filtered = useMemo(() => {
    const text = search ?? "";
    const out: ComboOption[] = [];
    for (const option of options) {
      if (matches(option, text)) out.push(option);
      if (out.length >= maxResults) break;
    }
    return out;
  }, [options, search, matches, maxResults]);

  useEffect(() => {
    if (!open) return;
    const el = listRef.current?.querySelector<HTMLElement>(`[data-index="${active}"]`);
    el?.scrollIntoView({ block: "nearest" });
  }, [active, open]);

  const pick = (option: ComboOption | undefined) => {
    if (option) onChange(option.value);
    setSearch(null);
    setOpen(false);
  };

  const openList = () => {
    const index = Math.max(
      0,
      filtered.findIndex((o) => o.value === value),
    );
    setActive(index);
    setOpen(true);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!open) return openList();
      const delta = event.key === "ArrowDown" ? 1 : -1;
      setActive((i) => (filtered.length === 0 ? 0 : (i + delta + filtered.length) % filtered.length));
    } else if (event.key === "Enter") {
      if (open) {
        event.preventDefault();
        pick(filtered[active]);
      }
    } else if (event.key === "Escape") {
      if (open || search !== null) {
        event.preventDefault();
        setSearch(null);
        setOpen(false);
      }
    }
  };

  const activeId = open && filtered[active] ? `${listId}-${active}` : undefined;
  return (
    <div className="combobox">
      <input
        id={id}
        type="text"
        role="combobox"
        className="input"
        autoComplete="off"
        spellCheck={false}
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={activeId}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        required={required}
        disabled={disabled}
        placeholder={placeholder}
        value={search ?? selected?.label ?? value}
        onChange={(event) => {
          setSearch(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={(event) => event.target.select()}
        onClick={() => (open ? setOpen(false) : openList())}
        onBlur={() => {
          setSearch(null);
          setOpen(false);
        }}
        onKeyDown={onKeyDown}
      />
      <div ref={listRef} id={listId} role="listbox" className="combobox-list" hidden={!open} aria-label="Choices">
        {filtered.length === 0 ? (
          <div className="combobox-empty">No matches</div>
        ) : (
          filtered.map((option, index) => (
            <div
              key={option.value}
              tabIndex={-1}
              id={`${listId}-${index}`}
              data-index={index}
              role="option"
              aria-selected={option.value === value}
              className={`combobox-option${index === active ? " is-active" : ""}`}
              // mousedown, not click: the input must not blur (and close the list) before the pick.
              onMouseDown={(event) => {
                event.preventDefault();
                pick(option);
              }}
              onMouseMove={() => setActive(index)}
            >
              {option.icon ? (
                <span className="combobox-main">
                  {option.icon}
                  <span>{option.label}</span>
                </span>
              ) : (
                <span>{option.label}</span>
              )}
              {option.hint ? <span className="combobox-hint">{option.hint}</span> : null}
            </div>
          ))
        )}
      </div>
    </div>
  );
}
