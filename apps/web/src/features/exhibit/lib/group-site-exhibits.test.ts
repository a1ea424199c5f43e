import { describe, expect, it } from 'vitest';
import type { Exhibit } from '@plinth/shared';
import { groupSiteExhibits } from './group-site-exhibits';

const ex = (id: string, name: string, leaderId: string | null = null, online = false) => ({ id, name, leaderId, online }) as Exhibit;

describe('groupSiteExhibits', () => {
  it('groups followers under their leader and lists the others alone, all by name', () => {
    const list = [
      ex('z', 'Zoo'),
      ex('f2', 'Beta follower', 'l'),
      ex('l', 'Lead', null, true),
      ex('f1', 'Alpha follower', 'l'),
      ex('a', 'Aquarium'),
      ex('o', 'Orphan', 'elsewhere'),
    ];
    const { groups, items } = groupSiteExhibits(list, (e) => `/x/${e.id}`);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.leader).toEqual({
      id: 'l',
      label: 'Lead',
      to: '/x/l',
      online: true,
    });
    expect(groups[0]!.followers.map((f) => f.label)).toEqual(['Alpha follower', 'Beta follower']);
    expect(items.map((i) => i.label)).toEqual(['Aquarium', 'Orphan', 'Zoo']);
  });
});
