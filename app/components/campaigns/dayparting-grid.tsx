/**
 * The dayparting grid: a real table of 7 days x 24 hours of checkboxes (named "daypart", values
 * "mon-9"…), with visible day and hour headers and a label per cell. It works without JS (each
 * checkbox is a form field; the quick fills are submit buttons the action answers with the grid
 * filled, nothing saved). With JS, the quick fills fill the grid in place and the arrow keys move
 * between cells (Home/End: first/last hour of the day, Ctrl+Home/End: first/last cell), and the
 * grid is one stop of the Tab key (a roving tabindex: the cell last focused, at first the first
 * ticked hour), so a keyboard user passes it with one Tab rather than 168.
 */
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { WEEK_DAYS, type WeekDay } from "~/domain/campaigns/campaign";
import { DAYPART_PRESETS, daypartPresetEntries, type DaypartPreset } from "~/domain/campaigns/targeting";
import { cellValue, hourLabel, hourTime, HOURS } from "~/domain/campaigns/dayparting";
import { cn } from "~/utils/misc";

const cellId = (idPrefix: string, day: WeekDay, hour: number) => `${idPrefix}-${day}-${hour}`;

export function DaypartingGrid({
  idPrefix,
  name,
  presetName,
  checked,
  disabled,
  timeZone,
  now,
  describedBy,
}: {
  idPrefix: string;
  /** The checkboxes' name. */
  name: string;
  /** The quick-fill buttons' name. */
  presetName: string;
  /** The cells checked at first render. */
  checked: ReadonlySet<string>;
  disabled?: boolean;
  timeZone: string;
  /** The retailer's local day and hour now, marked in the grid. */
  now?: { day: WeekDay; hour: number };
  describedBy?: string;
}) {
  const { t } = useTranslation("campaignTargeting");
  const tableRef = useRef<HTMLTableElement>(null);
  const [count, setCount] = useState(checked.size);
  const [announcement, setAnnouncement] = useState("");
  // The arrow keys are an enhancement: they are only mentioned once JS runs.
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  // The one cell the Tab key reaches once JS runs: the last focused, at first the first ticked.
  const [current, setCurrent] = useState(() => {
    for (const day of WEEK_DAYS) for (const h of HOURS) if (checked.has(cellValue(day, h))) return cellValue(day, h);
    return cellValue(WEEK_DAYS[0]!, 0);
  });

  const boxes = () => Array.from(tableRef.current?.querySelectorAll<HTMLInputElement>(`input[type="checkbox"][name="${name}"]`) ?? []);
  const recount = () => setCount(boxes().filter((b) => b.checked).length);

  function applyPreset(event: React.MouseEvent<HTMLButtonElement>, preset: DaypartPreset) {
    // With JS the grid is filled in place; without JS the button posts and the server fills it.
    event.preventDefault();
    const on = new Set(daypartPresetEntries(preset));
    for (const box of boxes()) box.checked = on.has(box.value);
    recount();
    setAnnouncement(t(`dayparting.filled.${preset}`));
  }

  function onKeyDown(event: React.KeyboardEvent<HTMLTableElement>) {
    const target = event.target as HTMLElement;
    const day = target.dataset.day as WeekDay | undefined;
    const hour = Number(target.dataset.hour);
    if (!day || Number.isNaN(hour)) return;
    let d = WEEK_DAYS.indexOf(day);
    let h = hour;
    switch (event.key) {
      case "ArrowRight":
        h = Math.min(23, h + 1);
        break;
      case "ArrowLeft":
        h = Math.max(0, h - 1);
        break;
      case "ArrowDown":
        d = Math.min(6, d + 1);
        break;
      case "ArrowUp":
        d = Math.max(0, d - 1);
        break;
      case "Home":
        h = 0;
        if (event.ctrlKey) d = 0;
        break;
      case "End":
        h = 23;
        if (event.ctrlKey) d = 6;
        break;
      default:
        return;
    }
    event.preventDefault();
    document.getElementById(cellId(idPrefix, WEEK_DAYS[d]!, h))?.focus();
  }

  return (
    <div className="daypart">
      <div className="daypart-presets" role="group" aria-label={t("dayparting.presets")}>
        {DAYPART_PRESETS.map((preset) => (
          <button
            key={preset}
            type="submit"
            name={presetName}
            value={preset}
            className="button"
            disabled={disabled}
            formNoValidate
            onClick={(event) => applyPreset(event, preset)}
          >
            {t(`dayparting.preset.${preset}`)}
          </button>
        ))}
      </div>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      <div className="table-wrap daypart-wrap">
        <table
          className="daypart-grid"
          ref={tableRef}
          onKeyDown={onKeyDown}
          onChange={recount}
          onFocus={(event) => {
            const cell = event.target as unknown as HTMLInputElement;
            if (cell.dataset.day && cell.value) setCurrent(cell.value);
          }}
          aria-describedby={describedBy}
        >
          <caption>
            {t("dayparting.caption", { timeZone })}
            {` ${t(enhanced ? "dayparting.keys" : "dayparting.keysNoScript")}`}
          </caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">{t("dayparting.dayHeader")}</span>
              </th>
              {HOURS.map((h) => (
                <th key={h} scope="col" className={cn(now?.hour === h && "daypart-now-col")}>
                  <span aria-hidden="true">{hourLabel(h)}</span>
                  <span className="visually-hidden">{hourTime(h)}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {WEEK_DAYS.map((day) => (
              <tr key={day}>
                <th scope="row">{t(`days.${day}`)}</th>
                {HOURS.map((h) => {
                  const value = cellValue(day, h);
                  const id = cellId(idPrefix, day, h);
                  const isNow = now?.day === day && now.hour === h;
                  return (
                    <td key={h} className={cn(isNow && "daypart-now")}>
                      <input
                        type="checkbox"
                        id={id}
                        name={name}
                        value={value}
                        defaultChecked={checked.has(value)}
                        disabled={disabled}
                        tabIndex={enhanced ? (value === current ? 0 : -1) : undefined}
                        data-day={day}
                        data-hour={h}
                      />
                      <label htmlFor={id} className="visually-hidden">
                        {t(isNow ? "dayparting.cellNow" : "dayparting.cell", { day: t(`days.${day}`), from: hourTime(h), to: hourTime((h + 1) % 24) })}
                      </label>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="field-help">{t("dayparting.count", { count })}</p>
    </div>
  );
}
