import { matchesSearch, type Exhibit, type Hardware } from '@plinth/shared';

/** Exhibits whose name matches the search (case-insensitive substring), online ones first, then by name. */
export function filterAndSortExhibits(exhibits: Exhibit[], search: string): Exhibit[] {
  return exhibits
    .filter((e) => matchesSearch(e.name, search))
    .sort((a, b) => Number(b.online) - Number(a.online) || a.name.localeCompare(b.name));
}

/** What filterAndSortExhibits reads of an exhibit. */
export const exhibitOrderKey = (e: Exhibit): string => `${e.online}|${e.name}`;

/** Hardware whose name matches the search, hardware attached to an exhibit first, then by name. */
export function filterAndSortHardware(hardware: Hardware[], search: string): Hardware[] {
  return hardware
    .filter((h) => matchesSearch(h.name, search))
    .sort((a, b) => Number(b.exhibitId !== null) - Number(a.exhibitId !== null) || a.name.localeCompare(b.name));
}

/** What filterAndSortHardware reads of a hardware unit. */
export const hardwareOrderKey = (h: Hardware): string => `${h.exhibitId !== null}|${h.name}`;
