import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exhibitSdkJsonSchemaText } from './protocol-json-schema.js';

const FILE = path.resolve(import.meta.dirname, '../protocol/exhibit-sdk.schema.json');

describe('the exported JSON Schema of the exhibit SDK protocol', () => {
  it('is what the zod schemas export today (run `npm run schemas` after changing them)', () => {
    expect(fs.readFileSync(FILE, 'utf8')).toBe(exhibitSdkJsonSchemaText());
  });
});
