import type { Exhibit } from '@plinth/shared';
import type { LeftNavGroup, LeftNavItem } from '../../../components/LeftNav';

/**
 * The left list of the site's exhibits: a leader groups its followers (when they are in the
 * same site), every other exhibit stands alone; groups and entries sorted by name.
 */
export function groupSiteExhibits(exhibits: Exhibit[], linkTo: (exhibit: Exhibit) => string): { groups: LeftNavGroup[]; items: LeftNavItem[] } {
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  const entry = (e: Exhibit): LeftNavItem => ({
    id: e.id,
    label: e.name,
    to: linkTo(e),
    online: e.online,
  });
  const ids = new Set(exhibits.map((e) => e.id));
  const isFollowerHere = (e: Exhibit) => e.leaderId !== null && ids.has(e.leaderId);
  const leaders = exhibits.filter((e) => exhibits.some((f) => f.leaderId === e.id) && !isFollowerHere(e)).sort(byName);
  const grouped = new Set<string>();
  const groups = leaders.map((leader) => {
    const followers = exhibits.filter((f) => f.leaderId === leader.id).sort(byName);
    grouped.add(leader.id);
    followers.forEach((f) => grouped.add(f.id));
    return { leader: entry(leader), followers: followers.map(entry) };
  });
  const items = exhibits
    .filter((e) => !grouped.has(e.id))
    .sort(byName)
    .map(entry);
  return { groups, items };
}
