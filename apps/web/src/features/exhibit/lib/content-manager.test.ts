import { describe, expect, it } from 'vitest';
import { SETTING_IDS } from '@plinth/shared';
import { contentManagerUrl, mediaLibraryUrl } from './content-manager';

const settings = (value: string) => [
  { idString: 'other', value: '{"url":"https://elsewhere.example"}' },
  { idString: SETTING_IDS.contentManager, value },
];

describe('contentManagerUrl', () => {
  it("reads the organization's content-manager address, without a trailing slash", () => {
    expect(contentManagerUrl(settings('{"url":" https://cms.example.org/ ","adminUser":"a"}'))).toBe('https://cms.example.org');
    expect(mediaLibraryUrl('https://cms.example.org')).toBe('https://cms.example.org/admin/plugins/upload');
  });

  it('answers null when none is set, the settings cannot be read, or the address is not http(s)', () => {
    expect(contentManagerUrl(undefined)).toBeNull();
    expect(contentManagerUrl([])).toBeNull();
    expect(contentManagerUrl(settings(''))).toBeNull();
    expect(contentManagerUrl(settings('{"url":""}'))).toBeNull();
    expect(contentManagerUrl(settings('not json'))).toBeNull();
    expect(contentManagerUrl(settings('{"url":"javascript:alert(1)"}'))).toBeNull();
    expect(contentManagerUrl(settings('{"url":"http://"}'))).toBeNull();
  });
});
