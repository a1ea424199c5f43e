import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './test/test-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

type OpenApi = {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, { tags?: string[] }>>;
};

describe('GET /api/docs', () => {
  it('answers an OpenAPI 3.1 document listing the paths of every module', async () => {
    const res = await server.client().get<OpenApi>('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('Plinth API');
    const expected: [string, string, string][] = [
      ['auth', 'post', '/api/v1/auth/user/login'],
      ['auth', 'get', '/api/v1/auth'],
      ['organization', 'get', '/api/v1/org-management/organization'],
      ['organization', 'put', '/api/v1/org-management/organization/{id}'],
      ['site', 'post', '/api/v1/org-management/site'],
      ['site', 'get', '/api/v1/org-management/site/{id}'],
      ['permission', 'get', '/api/v1/org-management/permission/organization'],
      ['permission', 'post', '/api/v1/org-management/permission/site'],
      ['permission', 'put', '/api/v1/org-management/permission/site/{id}'],
      ['exhibit', 'get', '/api/v1/exhibit-management/exhibit'],
      ['exhibit', 'get', '/api/v1/exhibit-management/exhibit/by-site-ids/'],
      ['exhibit', 'delete', '/api/v1/exhibit-management/exhibit/{id}'],
      ['hardware', 'get', '/api/v1/hardware-mgmt/hardware/'],
      ['hardware', 'post', '/api/v1/hardware-mgmt/hardware'],
      ['hardware', 'put', '/api/v1/hardware-mgmt/hardware/{id}'],
    ];
    for (const [tag, method, path] of expected) {
      expect(doc.paths[path], path).toBeDefined();
      expect(doc.paths[path]![method], `${method} ${path}`).toBeDefined();
      expect(doc.paths[path]![method]!.tags, `${method} ${path}`).toContain(tag);
    }
    // The console's own routes and the socket are not API paths; health and readiness are (for load balancers).
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/v1/')).sort()).toEqual(['/healthz', '/readyz']);
  });

  it('describes request bodies and responses from the shared schemas', async () => {
    const doc = (await server.client().get<OpenApi & { paths: Record<string, Record<string, unknown>> }>('/api/docs')).body;
    const create = doc.paths['/api/v1/exhibit-management/exhibit']!.post as {
      requestBody: { content: { 'application/json': { schema: { properties: Record<string, unknown>; required: string[] } } } };
      responses: Record<string, unknown>;
    };
    const body = create.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['name', 'siteId', 'mqttPath']));
    expect(body.required).toEqual(expect.arrayContaining(['name', 'siteId']));
    expect(create.responses['200']).toBeDefined();
  });

  it('describes API keys as the bearerAuth scheme, on the routes a key may call only', async () => {
    type Operation = { security?: Record<string, string[]>[] };
    const doc = (await server.client().get<OpenApi & { components: { securitySchemes: Record<string, { type: string; scheme?: string }> } }>('/api/docs')).body;
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const security = (path: string, method: string) => ((doc.paths[path]![method] as Operation).security ?? []).flatMap((s) => Object.keys(s));
    expect(security('/api/v1/exhibit-management/exhibit/{id}', 'get')).toEqual(['sessionCookie', 'bearerAuth']);
    expect(security('/api/v1/exhibit-management/exhibit/{id}/opMode', 'post')).toContain('bearerAuth');
    for (const [path, method] of [
      ['/api/v1/auth', 'get'],
      ['/api/v1/org-management/organization/{id}/api-keys', 'post'],
      ['/api/v1/org-management/api-keys/{id}', 'delete'],
      ['/api/v1/org-management/permission/organization', 'post'],
      ['/api/v1/logging/exhibit/live', 'post'],
    ] as const) {
      expect(security(path, method), `${method} ${path}`).toEqual(['sessionCookie']);
    }
  });
});
