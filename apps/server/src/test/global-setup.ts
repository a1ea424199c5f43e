import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.js';
import { adminQuery, databaseUrl, ensurePostgres, uniqueDatabaseName } from './postgres.js';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  export interface ProvidedContext {
    /** A migrated database each test file copies (CREATE DATABASE ... TEMPLATE). */
    templateDatabase: string;
  }
}

/** Makes one migrated template database per run; each test file gets a fresh copy of it. */
export default async function setup(project: TestProject) {
  await ensurePostgres();
  const template = uniqueDatabaseName('plinth_tpl');
  await adminQuery(`create database ${template}`);
  const database = await openDatabase({ databaseUrl: databaseUrl(template), dataDir: '', holder: 'test' });
  await database.migrate();
  await database.close();
  project.provide('templateDatabase', template);
  return async () => {
    await adminQuery(`drop database if exists ${template} with (force)`);
  };
}
