/**
 * The search-as-you-type field shared by the pickers (ADR 26, ADR 35): the campaign editor's
 * product picker and category search, and the quick builder's product step.
 *
 * Without JavaScript it is a plain `type=search` input of the caller's GET form (the page answers
 * the search itself). Once hydrated it becomes an ARIA 1.2 combobox: typing searches after a pause
 * through the caller's resource route (`searchUrl`), focusing it with nothing loaded yet asks for
 * the suggestions (empty query); ↓/↑ move through the options, Enter picks the active one (with no
 * active option the form is submitted as without JavaScript), Escape closes the list. A polite live
 * region says how many were found, or the caller's own message (`announce`, e.g. what was added).
 *
 * The caller renders the label (htmlFor = `inputId`), the form and what a pick does.
 */
import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useHydrated } from "~/components/use-hydrated";
import { cn } from "~/utils/misc";

/** The pause after a keystroke before searching. */
export const COMBOBOX_DEBOUNCE_MS = 250;

/** What a picker's resource route answers. */
export interface ComboboxAnswer<Row> {
  query: string;
  /** True: nothing was typed, the rows are suggestions. */
  suggested: boolean;
  rows: Row[];
  /** A failure title (an i18n key), or null. */
  failure: string | null;
}

export interface SearchComboboxProps<Row> {
  inputId: string;
  /** The GET parameter of the field (the search without JavaScript). */
  name: string;
  defaultValue: string;
  /** The resource route answering a query with a ComboboxAnswer. */
  searchUrl: (query: string) => string;
  /** The accessible name of the list of options. */
  listLabel: string;
  optionKey: (row: Row) => string;
  /** The option's content (its text is its accessible name). */
  renderOption: (row: Row) => ReactNode;
  /** Why an option cannot be picked (said in the option, which is then aria-disabled), or null. */
  unavailable?: (row: Row) => string | null;
  onPick: (row: Row) => void;
  /** The live region's texts. */
  messages: { found: (count: number) => string; suggested: (count: number) => string; none: (query: string) => string; failure: (title: string) => string };
  /** A message of the caller's (what a pick did) said instead of the search's, until the next keystroke. */
  announce?: string;
  onTyping?: () => void;
  /** Ids of the field's help texts. */
  describedBy?: string;
  maxLength?: number;
  /** Changing it reloads the options shown (e.g. the kind of category searched). */
  reloadKey?: string;
  className?: string;
  /** Shown beside the field (its form's submit button). */
  children?: ReactNode;
}

export function SearchCombobox<Row>(props: SearchComboboxProps<Row>) {
  const { inputId, name, defaultValue, searchUrl, listLabel, optionKey, renderOption, unavailable, onPick, messages, announce, onTyping, describedBy, maxLength = 200, reloadKey, className, children } = props;
  const hydrated = useHydrated();
  const listboxId = `${inputId}-listbox`;
  const search = useFetcher<ComboboxAnswer<Row>>();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const options: Row[] = search.data?.rows ?? [];
  const searching = search.state !== "idle";
  // Typed but not searched yet, or searched but not answered: the options shown are the previous
  // query's, not to be chosen. Derived in the render that shows the answer (not in an effect after
  // it), so an arrow key pressed as soon as the options appear moves among them.
  const [typing, setTyping] = useState(false);
  const stale = typing || searching;
  const load = (query: string) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    setTyping(false);
    search.load(searchUrl(query));
  };

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  // Another kind asked for: the options shown are read again.
  const firstKey = useRef(reloadKey);
  useEffect(() => {
    if (reloadKey === firstKey.current) return;
    firstKey.current = reloadKey;
    setActive(-1);
    if (input.current) load(input.current.value);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reloadKey]);

  // What the search found, said once it answers.
  const found = search.data && search.state === "idle" ? search.data : null;
  const searchMessage = !found
    ? ""
    : found.failure
      ? messages.failure(found.failure)
      : found.suggested
        ? messages.suggested(found.rows.length)
        : found.rows.length
          ? messages.found(found.rows.length)
          : messages.none(found.query);

  const pick = (row: Row) => {
    if (unavailable?.(row)) return;
    onPick(row);
  };

  const onChange = (value: string) => {
    if (timer.current) clearTimeout(timer.current);
    setActive(-1);
    setOpen(true);
    setTyping(true);
    onTyping?.();
    timer.current = setTimeout(() => load(value), COMBOBOX_DEBOUNCE_MS);
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!open || !search.data) {
        setOpen(true);
        if (!search.data) load(event.currentTarget.value);
        return;
      }
      if (stale) {
        // Search what was typed now rather than choosing among the previous answer.
        if (timer.current) load(event.currentTarget.value);
        return;
      }
      if (!options.length) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((i) => (i < 0 ? (step > 0 ? 0 : options.length - 1) : (i + step + options.length) % options.length));
    } else if (event.key === "Enter") {
      if (open && !stale && active >= 0 && options[active]) {
        event.preventDefault();
        pick(options[active]!);
      }
      // Else the search form is submitted: the page lists the results.
    } else if (event.key === "Escape") {
      if (open) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      }
    }
  };

  const expanded = hydrated && open && !!search.data;
  const activeId = expanded && active >= 0 && options[active] ? `${listboxId}-${active}` : undefined;

  return (
    <div className={cn("picker-box", className)}>
      <input
        ref={input}
        id={inputId}
        name={name}
        type="search"
        defaultValue={defaultValue}
        autoComplete="off"
        spellCheck={false}
        maxLength={maxLength}
        aria-describedby={describedBy}
        {...(hydrated
          ? {
              role: "combobox",
              "aria-expanded": expanded,
              "aria-controls": listboxId,
              "aria-autocomplete": "list" as const,
              "aria-activedescendant": activeId,
              onChange: (e: React.ChangeEvent<HTMLInputElement>) => onChange(e.currentTarget.value),
              onKeyDown,
              onFocus: (e: React.FocusEvent<HTMLInputElement>) => {
                if (!search.data) load(e.currentTarget.value);
              },
              onBlur: () => setTimeout(() => setOpen(false), 150),
            }
          : {})}
      />
      {children}
      {hydrated ? (
        <ul id={listboxId} role="listbox" aria-label={listLabel} className="picker-listbox" hidden={!expanded} aria-busy={searching || stale || undefined}>
          {options.map((row, index) => {
            const note = unavailable?.(row) ?? null;
            return (
              <li
                key={optionKey(row)}
                id={`${listboxId}-${index}`}
                role="option"
                aria-selected={index === active}
                aria-disabled={note ? true : undefined}
                className={cn("picker-option", index === active && "picker-option-active", note && "picker-option-disabled")}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(row)}
              >
                {renderOption(row)}
                {note ? <span className="muted picker-option-details">{note}</span> : null}
              </li>
            );
          })}
          {search.data && !options.length ? (
            <li role="option" aria-disabled="true" aria-selected="false" className="picker-option picker-option-disabled">
              {search.data.failure ? messages.failure(search.data.failure) : search.data.suggested ? messages.suggested(0) : messages.none(search.data.query)}
            </li>
          ) : null}
        </ul>
      ) : null}
      {hydrated ? (
        <p className="visually-hidden" aria-live="polite" role="status">
          {announce || searchMessage}
        </p>
      ) : null}
    </div>
  );
}
