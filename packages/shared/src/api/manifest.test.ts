import { describe, expect, it } from 'vitest';
import { parseManifest } from './manifest.js';

const INNER = {
  statuses: [{ id: 'ip_address', type: 'String' }],
  controls: [{ id: 'reload' }],
  settings: [{ id: 'volume', type: 'IntegerInput', default: 3 }],
};

describe('parseManifest: the forms a manifest arrives in', () => {
  it('accepts Gumband’s wrapped form {"manifest": {...}} as the manifest it wraps', () => {
    const parsed = parseManifest({ manifest: INNER });
    expect(parsed).toMatchObject({ success: true });
    if (!parsed.success) return;
    expect(parsed.manifest.statuses.map((s) => s.id)).toEqual(['ip_address']);
    expect(parsed.manifest.controls.map((c) => c.id)).toEqual(['reload']);
    expect(parsed.manifest.settings.map((s) => s.id)).toEqual(['volume']);
    expect(parseManifest({ manifest: INNER })).toEqual(parseManifest(INNER));
  });

  it('refuses an unknown top-level key with a message naming it, wrapped or not', () => {
    const bare = parseManifest({ ...INNER, setings: [] });
    expect(bare).toEqual({ success: false, message: expect.stringContaining('"setings"') });
    const wrapped = parseManifest({ manifest: { ...INNER, statusses: [] } });
    expect(wrapped).toEqual({ success: false, message: expect.stringContaining('"statusses"') });
    const beside = parseManifest({ manifest: INNER, version: 2 });
    expect(beside).toEqual({ success: false, message: expect.stringContaining('"version"') });
  });

  it('still reads an empty object as an empty manifest, and names problems inside the wrapped form', () => {
    expect(parseManifest({})).toMatchObject({ success: true, manifest: { statuses: [], controls: [], settings: [] } });
    const bad = parseManifest({ manifest: { settings: [{ id: 'volume', type: 'IntegerInput', default: 1.5 }] } });
    expect(bad).toEqual({ success: false, message: 'Invalid manifest: settings[0] "volume": default must be an integer' });
  });

  it('refuses an order PostgreSQL’s integer column cannot hold, naming it', () => {
    expect(parseManifest({ statuses: [{ id: 'count', order: 2 ** 31 }] })).toEqual({
      success: false,
      message: 'Invalid manifest: statuses[0] "count": order: must be at most 2147483647',
    });
    expect(parseManifest({ statuses: [{ id: 'count', order: 2 ** 31 - 1 }] })).toMatchObject({ success: true });
  });

  it('refuses a nested value in a list item (found by the socket fuzz: it overflowed the stack)', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = { a: [deep] };
    const parsed = parseManifest({
      settingLists: [{ id: 'scenes', settings: [{ id: 'duration', type: 'IntegerInput' }], defaultItems: [{ listName: 'Intro', values: { duration: deep } }] }],
    });
    expect(parsed).toEqual({ success: false, message: expect.stringContaining('must be a boolean, a number, a string or null') });
  });
});
