import type { ReactNode } from "react";

/**
 * A wide table's own scrolling region: the page never scrolls sideways, and the region can be
 * reached and scrolled from the keyboard (focusable, named by the table's caption or heading).
 */
export function TableWrap({ label, labelledBy, className, children }: { label?: string; labelledBy?: string; className?: string; children: ReactNode }) {
  return (
    <div className={className ? `table-wrap ${className}` : "table-wrap"} role="region" aria-label={labelledBy ? undefined : label} aria-labelledby={labelledBy} tabIndex={0}>
      {children}
    </div>
  );
}
