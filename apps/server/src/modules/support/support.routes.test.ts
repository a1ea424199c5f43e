import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ SUPPORT_EMAIL: 'help@plinth.test' });
});
afterAll(async () => {
  await server?.stop();
});

describe('GET /config', () => {
  it('answers the port the embedded broker really listens on when MQTT_PORT=0 picked a free one', async () => {
    const res = await server.client().get('/config');
    expect(res.status).toBe(200);
    expect(server.mqttPort).toBeGreaterThan(0);
    expect(res.body.mqttPort).toBe(server.mqttPort);
    expect(res.body.supportEmail).toBe('help@plinth.test');
    expect(res.body.maxFileBytes).toBe(2 * 1024 ** 3);
  });
});

describe('POST /support/ticket', () => {
  it('mails the ticket to SUPPORT_EMAIL with the user as reply-to', async () => {
    const { client, email } = await server.signUp({ firstName: 'Grace', lastName: 'Hopper' });
    const res = await client.post('/support/ticket', { subject: 'Kiosk frozen', description: 'The wave tank kiosk stopped at 10:02.' });
    expect(res.status).toBe(200);
    const mail = await server.mail.waitFor('help@plinth.test', (m) => m.subject.includes('Kiosk frozen'));
    expect(mail.subject).toBe('[Plinth ticket] Kiosk frozen');
    expect(mail.replyTo).toContain(email);
    expect(mail.text).toContain('Grace Hopper');
    expect(mail.text).toContain('The wave tank kiosk stopped at 10:02.');
  });

  it('needs a signed-in user and a subject and description', async () => {
    expect((await server.client().post('/support/ticket', { subject: 'x', description: 'y' })).status).toBe(401);
    const { client } = await server.signUp();
    const empty = await client.post('/support/ticket', { subject: ' ', description: 'y' });
    expect(empty.status).toBe(400);
    expect(empty.body.response).toMatch(/^subject: /);
  });
});
