/**
 * The whole drizzle schema, for repositories and drizzle-kit (which reads this file): the core
 * tables (users, organizations, sites, exhibits, hardware, grants, tokens), then the hardware and
 * exhibit runtime tables, which reference the core ones. Nothing here imports back from this file.
 */
export * from './schema-core.js';
export * from './schema-hardware.js';
export * from './schema-exhibits.js';
export * from './schema-logs.js';
export * from './schema-scheduling.js';
export * from './schema-people.js';
export * from './schema-two-factor.js';
export * from './schema-api-keys.js';
export * from './schema-audit.js';
