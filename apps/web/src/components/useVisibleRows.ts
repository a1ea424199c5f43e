import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** Rows drawn above and below the visible area, so a quick scroll does not show blank space. */
const OVERSCAN_ROWS = 3;

/** The first and last row to draw (inclusive). */
export type RowRange = { first: number; last: number };

export type VisibleRowsOptions = {
  rowCount: number;
  /** Off: nothing is listened to and the range is not used. */
  enabled: boolean;
  /** A row's height (px, gap included) until `measureRowPx` can tell. */
  estimatedRowPx: number;
  /** The drawn rows' pitch in px, or 0 while it cannot be measured (nothing laid out yet). */
  measureRowPx: () => number;
  /** The scrolling element the rows show in; the browser window when absent. */
  viewportRef?: RefObject<HTMLElement | null>;
};

/**
 * Windowing for long lists (issue 17): which rows of a `rowCount`-row list, whose first row starts
 * at the top of `containerRef`, the viewport shows, with overscan, and the row height to give
 * the rows not drawn. Follows every scroll (capturing, whichever element scrolls) and resize, at
 * most once per animation frame.
 */
export function useVisibleRows(options: VisibleRowsOptions): { containerRef: RefObject<HTMLDivElement | null>; range: RowRange; rowPx: number } {
  const { rowCount, enabled, estimatedRowPx, measureRowPx, viewportRef } = options;
  const containerRef = useRef<HTMLDivElement>(null);
  const [rowPx, setRowPx] = useState(estimatedRowPx);
  const [range, setRange] = useState<RowRange>({ first: 0, last: Math.min(rowCount, 12) - 1 });

  useLayoutEffect(() => {
    if (!enabled) return;
    const update = () => {
      const container = containerRef.current;
      if (!container) return;
      const measured = measureRowPx();
      const pitch = measured > 0 ? measured : rowPx;
      if (measured > 0 && Math.abs(measured - rowPx) > 0.5) setRowPx(measured);
      // What is on screen: the scrolling element's box cut to the window (an element that grows
      // with its content does not scroll itself, the page does).
      const box = viewportRef?.current?.getBoundingClientRect();
      const viewTop = Math.max(box?.top ?? 0, 0);
      const viewBottom = Math.max(viewTop, Math.min(box?.bottom ?? window.innerHeight, window.innerHeight));
      const top = viewTop - container.getBoundingClientRect().top;
      const first = Math.max(0, Math.floor(top / pitch) - OVERSCAN_ROWS);
      const last = Math.min(rowCount - 1, Math.ceil((top + viewBottom - viewTop) / pitch) + OVERSCAN_ROWS);
      setRange((current) => (current.first === first && current.last === last ? current : { first, last }));
    };
    let frame = 0;
    const schedule = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        update();
      });
    };
    update();
    document.addEventListener('scroll', schedule, { capture: true, passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener('scroll', schedule, { capture: true });
      window.removeEventListener('resize', schedule);
    };
  }, [enabled, rowCount, rowPx, measureRowPx, viewportRef]);

  const first = Math.min(range.first, Math.max(0, rowCount - 1));
  const last = Math.min(range.last, rowCount - 1);
  return { containerRef, range: { first, last }, rowPx };
}
