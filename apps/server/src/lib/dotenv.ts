import fs from 'node:fs';
import path from 'node:path';

/**
 * Reads `.env` from the working directory into `process.env` when the file exists, as
 * `.env.example` suggests (`npm start` and `npx plinth` both call it). Variables already set in
 * the environment win over the file. Answers the file read, or null.
 */
export function loadDotEnv(directory: string = process.cwd()): string | null {
  const file = path.join(directory, '.env');
  if (!fs.existsSync(file)) return null;
  process.loadEnvFile(file);
  return file;
}
