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

  it('keeps Gumband compatibility off by default, and its ports clear of PORT, METRICS_PORT and MQTT_PORT', () => {
    expect(loadConfig({})).toMatchObject({ GUMBAND_COMPAT: false, GUMBAND_COMPAT_BASE_PORT: 3000 });
    expect(() => loadConfig({ GUMBAND_COMPAT: '1' })).toThrow(/PORT: 3000 is one of the Gumband compatibility ports \(3000-3010\)/);
    expect(loadConfig({ GUMBAND_COMPAT: '1', PORT: '8080' })).toMatchObject({ GUMBAND_COMPAT: true, GUMBAND_COMPAT_BASE_PORT: 3000 });
    expect(() => loadConfig({ GUMBAND_COMPAT: 'true', GUMBAND_COMPAT_BASE_PORT: '4000', METRICS_PORT: '4010' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ GUMBAND_COMPAT_BASE_PORT: '65530' })).toThrow(/GUMBAND_COMPAT_BASE_PORT/);
  });

  it('fetches no loopback address by default and reads OUTBOUND_ALLOW_LOOPBACK as loopback host:port pairs', () => {
    expect(loadConfig({}).OUTBOUND_ALLOW_LOOPBACK).toEqual([]);
    expect(loadConfig({ OUTBOUND_ALLOW_LOOPBACK: '127.0.0.1:1337, LOCALHOST:8080,[::1]:9' }).OUTBOUND_ALLOW_LOOPBACK).toEqual([
      '127.0.0.1:1337',
      'localhost:8080',
      '[::1]:9',
    ]);
    expect(() => loadConfig({ OUTBOUND_ALLOW_LOOPBACK: '10.0.0.1:1337' })).toThrow(/OUTBOUND_ALLOW_LOOPBACK/);
    expect(() => loadConfig({ OUTBOUND_ALLOW_LOOPBACK: '127.0.0.1' })).toThrow(/OUTBOUND_ALLOW_LOOPBACK/);
  });

  it('trusts no proxy by default and reads TRUST_PROXY as a list of addresses and ranges', () => {
    expect(loadConfig({}).TRUST_PROXY).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, 127.0.0.1,::1 , fd00::/8,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example.org' })).toThrow(/TRUST_PROXY/);
  });

  it('has the throttle budgets of docs/security-throttling.md', () => {
    expect(loadConfig({})).toMatchObject({
      THROTTLE_ACCOUNT_FAILURES: 5,
      THROTTLE_IP_FAILURES: 50,
      THROTTLE_MAILS_PER_ADDRESS: 3,
      THROTTLE_MAILS_PER_SENDER: 30,
    });
    expect(() => loadConfig({ THROTTLE_ACCOUNT_FAILURES: '0' })).toThrow(/THROTTLE_ACCOUNT_FAILURES/);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).DATABASE_URL).toBeUndefined();
  });
});

describe('configuration of what Plinth fetches and keeps', () => {
  it('chooses the mail transport: smtp with SMTP_URL, the log on the embedded default, nothing with PostgreSQL alone', () => {
    expect(loadConfig({}).mailTransport).toBe('log');
    expect(loadConfig({ SMTP_URL: 'smtp://mail:25' }).mailTransport).toBe('smtp');
    expect(loadConfig({ DATABASE_URL: 'postgres://db/plinth' }).mailTransport).toBe('disabled');
    expect(loadConfig({ DATABASE_URL: 'postgres://db/plinth', MAIL_TRANSPORT: 'log' }).mailTransport).toBe('log');
    expect(loadConfig({ SMTP_URL: 'smtp://mail:25', MAIL_TRANSPORT: 'log' }).mailTransport).toBe('log');
    expect(() => loadConfig({ MAIL_TRANSPORT: 'smtp' })).toThrow(/MAIL_TRANSPORT: smtp needs SMTP_URL/);
    expect(() => loadConfig({ MAIL_TRANSPORT: 'pigeon' })).toThrow(/MAIL_TRANSPORT/);
  });

  it('reads SECRET_KEY as 32 bytes of base64 or hex, naming it when it is not', () => {
    expect(loadConfig({}).secretKey).toBeUndefined();
    expect(loadConfig({ SECRET_KEY: 'ab'.repeat(32) }).secretKey).toEqual(Buffer.alloc(32, 0xab));
    expect(loadConfig({ SECRET_KEY: Buffer.alloc(32, 1).toString('base64') }).secretKey).toEqual(Buffer.alloc(32, 1));
    expect(() => loadConfig({ SECRET_KEY: 'hunter2' })).toThrow(/SECRET_KEY: must be 32 random bytes/);
    expect(() => loadConfig({ SECRET_KEY: 'hunter2' })).not.toThrow(/hunter2/);
  });

  it('refuses private addresses unless OUTBOUND_ALLOW_PRIVATE', () => {
    expect(loadConfig({}).OUTBOUND_ALLOW_PRIVATE).toBe(false);
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: '1' }).OUTBOUND_ALLOW_PRIVATE).toBe(true);
    expect(() => loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'yes' })).toThrow(/OUTBOUND_ALLOW_PRIVATE/);
  });

  it('keeps files on local disk under DATA_DIR/store unless FILE_STORE_URL names an S3 bucket', () => {
    expect(loadConfig({ DATA_DIR: '/srv/plinth' }).fileStore).toEqual({ kind: 'local', root: '/srv/plinth/store' });
    expect(loadConfig({ FILE_STORE_URL: '' }).fileStore.kind).toBe('local');
  });

  it('reads an S3 store: the bucket, a prefix, the endpoint and keys, path style with an endpoint', () => {
    expect(
      loadConfig({
        FILE_STORE_URL: 's3://media.example/plinth/prod/',
        S3_ENDPOINT: 'http://minio.internal:9000',
        S3_ACCESS_KEY_ID: 'AKIA',
        S3_SECRET_ACCESS_KEY: 'secret',
      }).fileStore,
    ).toEqual({
      kind: 's3',
      bucket: 'media.example',
      prefix: 'plinth/prod/',
      region: 'us-east-1',
      endpoint: 'http://minio.internal:9000',
      credentials: { accessKeyId: 'AKIA', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
    // AWS itself: the default credential chain, virtual-hosted addresses, the region given.
    expect(loadConfig({ FILE_STORE_URL: 's3://plinth-files', S3_REGION: 'eu-west-3' }).fileStore).toEqual({
      kind: 's3',
      bucket: 'plinth-files',
      prefix: '',
      region: 'eu-west-3',
      endpoint: undefined,
      credentials: undefined,
      forcePathStyle: false,
    });
    const virtualHosted = loadConfig({ FILE_STORE_URL: 's3://b12', S3_ENDPOINT: 'https://s3.example.org', S3_FORCE_PATH_STYLE: 'false' });
    expect(virtualHosted.fileStore).toMatchObject({ forcePathStyle: false });
  });

  it('names the file-store variable that is wrong', () => {
    for (const url of ['/data/files', 's3://', 's3://UPPER', 's3://ab', 's3://bucket/../x', 's3://bucket/a b', 'http://bucket']) {
      expect(() => loadConfig({ FILE_STORE_URL: url })).toThrow(/FILE_STORE_URL: must be s3:\/\/bucket/);
    }
    expect(() => loadConfig({ FILE_STORE_URL: 's3://bucket', S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ FILE_STORE_URL: 's3://bucket', S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/S3_FORCE_PATH_STYLE/);
    expect(() => loadConfig({ FILE_STORE_URL: 's3://bucket', S3_ACCESS_KEY_ID: 'AKIA' })).toThrow(/S3_SECRET_ACCESS_KEY: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together/);
    expect(() => loadConfig({ FILE_STORE_URL: 's3://bucket', S3_SECRET_ACCESS_KEY: 'secret' })).toThrow(/S3_ACCESS_KEY_ID: set/);
    // An S3 setting without an S3 store would leave each node with files of its own.
    expect(() => loadConfig({ S3_ENDPOINT: 'http://minio.internal:9000' })).toThrow(/S3_ENDPOINT: is only read with FILE_STORE_URL=s3:/);
    expect(() => loadConfig({ S3_REGION: 'eu-west-3' })).toThrow(/S3_REGION/);
    expect(() => loadConfig({ S3_ACCESS_KEY_ID: 'AKIA', S3_SECRET_ACCESS_KEY: 'secret' })).toThrow(ConfigError);
  });

  it('keeps metrics off and drains 5 s by default; reads the metrics port, its token and the log format, naming a bad one', () => {
    const defaults = loadConfig({});
    expect([defaults.METRICS_PORT, defaults.METRICS_TOKEN, defaults.LOG_FORMAT, defaults.SHUTDOWN_DRAIN_MS]).toEqual([undefined, undefined, undefined, 5000]);
    const set = loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5', METRICS_TOKEN: 'a'.repeat(16), LOG_FORMAT: 'json', SHUTDOWN_DRAIN_MS: '0' });
    expect([set.METRICS_PORT, set.METRICS_HOST, set.LOG_FORMAT, set.SHUTDOWN_DRAIN_MS]).toEqual([9464, '10.0.0.5', 'json', 0]);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });

  it('limits uploads to MAX_FILE_BYTES, 2 GiB by default', () => {
    expect(loadConfig({}).MAX_FILE_BYTES).toBe(2 * 1024 ** 3);
    expect(loadConfig({ MAX_FILE_BYTES: '1048576' }).MAX_FILE_BYTES).toBe(1048576);
    expect(() => loadConfig({ MAX_FILE_BYTES: '0' })).toThrow(/MAX_FILE_BYTES/);
    expect(() => loadConfig({ MAX_FILE_BYTES: '2GB' })).toThrow(/MAX_FILE_BYTES/);
  });
});
