import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseManifest } from '@plinth/shared';
import { runCli } from '../../cli.js';
import { convertGumbandManifest, ManifestConversionError } from './manifest-converter.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name: string) => path.join(here, 'test-fixtures/manifests', name);
const EXAMPLE = path.resolve(here, '../../../../../examples/gumband-exhibit/manifest.json');
const read = (file: string): unknown => JSON.parse(fs.readFileSync(file, 'utf8'));

describe('the Gumband manifest converter', () => {
  it("converts the SDK README's manifest: a nested list is left out and said so, values dropped", () => {
    const { manifest, changes } = convertGumbandManifest(read(fixture('readme.json')));
    expect(manifest.statuses.map((s) => [s.id, s.type])).toEqual([
      ['ip_address', 'String'],
      ['count', 'Integer'],
      ['last_interaction', 'Date'],
      ['primary_color', 'Color'],
    ]);
    expect(manifest.controls.find((c) => c.id === 'restart_cameras')?.items?.map((i) => i.id)).toEqual(['camera_1', 'camera_2']);
    expect(manifest.controls.find((c) => c.id === 'skip')?.enabledOpMode).toBe('On');
    expect(manifest.settings.map((s) => s.id)).toEqual(['kiosk_name', 'idle_timeout_secs', 'prod_api', 'audio_file', 'ux_mode', 'date']);
    expect(manifest.settingLists).toEqual([
      expect.objectContaining({ id: 'named_images', listDisplay: 'Named Images', settings: [expect.objectContaining({ id: 'image_group_title', type: 'TextInput' })] }),
    ]);
    expect(changes).toContain('"named_images/images_list": a SettingsList inside a settings list has no Plinth equivalent; left out');
    expect(changes).toContain('status "count": its "value" is left out (Plinth stores values, the exhibit sets them)');
    expect(changes).toContain('setting "audio_file": its "value" is left out (the console sets values)');
  });

  it('converts status groups, HexColor, string defaults, empty dates and nested setting groups', () => {
    const { manifest, changes } = convertGumbandManifest(read(fixture('gallery.json')));
    expect(manifest.statuses).toEqual([
      expect.objectContaining({ id: 'projector~lamp_hours', type: 'Integer', default: 0, display: 'Projector › Lamp Hours' }),
      expect.objectContaining({ id: 'projector~input', type: 'String' }),
      expect.objectContaining({ id: 'accent', type: 'Color', default: '#ff8800' }),
      expect.objectContaining({ id: 'last_reboot', type: 'Date' }),
    ]);
    const byId = Object.fromEntries(manifest.settings.map((s) => [s.id, s]));
    expect(byId.opening_day).toMatchObject({ type: 'Date', default: null });
    expect(byId.theme_color).toMatchObject({ type: 'TextInput', default: '#112233' });
    expect(byId.volume).toMatchObject({ type: 'IntegerInput', default: 7, min: 0, max: 10 });
    expect(byId.captions).toMatchObject({ type: 'Toggle', default: true });
    expect(byId.attract_loop).toMatchObject({ type: 'FileSelection', default: 'loop.mp4' });
    const lighting = manifest.settingGroups[0]!;
    expect(lighting).toMatchObject({ id: 'lighting', groupDisplay: 'Lighting' });
    expect(lighting.settings?.map((s) => [s.id, s.default])).toEqual([['brightness', 80]]);
    expect(lighting.settingGroups?.[0]?.settings?.map((s) => s.id)).toEqual(['lights_on', 'lights_off']);
    expect(lighting.settingLists?.[0]?.settings.map((s) => [s.id, s.type])).toEqual([['cue_name', 'TextInput'], ['cue_color', 'TextInput']]);
    expect(changes).toEqual(
      expect.arrayContaining([
        'status group "projector": its 2 statuses become top-level statuses "projector~<id>"',
        'status "accent": type HexColor becomes Color',
        'setting "volume": default "7" becomes 7',
        'setting "captions": default "true" becomes true',
      ]),
    );
  });

  it('converts the example exhibit, and its result is a valid Plinth manifest', () => {
    const { manifest } = convertGumbandManifest(read(EXAMPLE));
    expect(parseManifest(manifest).success).toBe(true);
    expect(manifest.settingGroups.map((g) => g.id)).toEqual(['audio']);
    expect(manifest.settingLists.map((l) => l.id)).toEqual(['scenes']);
  });

  it('refuses what Plinth cannot hold, naming the item', () => {
    const duplicate = { manifest: { settings: [{ id: 'a', type: 'TextInput' }, { id: 'g', type: 'SettingsGroup', schema: [{ id: 'a', type: 'Toggle' }] }] } };
    expect(() => convertGumbandManifest(duplicate)).toThrow(ManifestConversionError);
    expect(() => convertGumbandManifest(duplicate)).toThrow(/duplicate id "a"/);
    expect(() => convertGumbandManifest({ manifest: { settings: [{ id: 'x', type: 'Slider' }] } })).toThrow(/type must be one of/);
    expect(() => convertGumbandManifest('nope')).toThrow(/JSON object/);
  });
});

describe('plinth gumband convert-manifest', () => {
  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, { write: (t: string) => out.push(t) }, { write: (t: string) => err.push(t) });
    return { code, out: out.join(''), err: err.join('') };
  }

  it('prints the Plinth manifest and lists what changed', async () => {
    const result = await cli('gumband', 'convert-manifest', fixture('gallery.json'));
    expect(result.code).toBe(0);
    expect(parseManifest(JSON.parse(result.out)).success).toBe(true);
    expect(result.err).toContain('What changed:');
    expect(result.err).toContain('setting "theme_color": type HexColor becomes TextInput');
  });

  it('writes to --out, and fails with a message on a bad manifest or usage', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gumband-cli-'));
    const out = path.join(dir, 'plinth.json');
    expect((await cli('gumband', 'convert-manifest', fixture('readme.json'), '--out', out)).code).toBe(0);
    expect(parseManifest(read(out)).success).toBe(true);
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, JSON.stringify({ manifest: { settings: [{ id: 'x', type: 'Slider' }] } }));
    const failed = await cli('gumband', 'convert-manifest', bad);
    expect(failed.code).toBe(1);
    expect(failed.err).toMatch(/plinth: Invalid manifest: settings\[0\] "x"/);
    expect((await cli('gumband', 'convert-manifest')).code).toBe(2);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
