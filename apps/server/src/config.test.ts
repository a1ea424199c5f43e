import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('has the embedded defaults', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.MQTT_PORT).toBe(1883);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.cookieSecure).toBe(false);
    expect(config.oidcEnabled).toBe(false);
    expect(config.REPORT_URL_PREFIX).toBe('https://lookerstudio.google.com/embed/');
  });

  it('derives secure cookies and the issuer from the settings', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://plinth.example.org/', GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' });
    expect(config.publicUrl).toBe('https://plinth.example.org');
    expect(config.cookieSecure).toBe(true);
    expect(config.oidcEnabled).toBe(true);
    expect(config.oidcIssuerUrl).toBe('https://accounts.google.com');
  });

  it('names the variable of a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ SUPPORT_EMAIL: 'nobody' })).toThrow(/SUPPORT_EMAIL/);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).DATABASE_URL).toBeUndefined();
  });
});
