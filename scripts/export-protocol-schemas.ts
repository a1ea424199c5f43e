// `npm run schemas`: writes the exhibit SDK protocol's JSON Schema (packages/shared/protocol/exhibit-sdk.schema.json).
import fs from 'node:fs';
import path from 'node:path';
import { exhibitSdkJsonSchemaText } from '../packages/shared/src/protocol-json-schema.js';

const file = path.resolve(import.meta.dirname, '../packages/shared/protocol/exhibit-sdk.schema.json');
fs.writeFileSync(file, exhibitSdkJsonSchemaText());
console.log(`wrote ${path.relative(process.cwd(), file)}`);
