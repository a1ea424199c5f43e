import { z } from 'zod';
import { ManifestSchema } from './api/manifest.js';
import { ExhibitAuthenticateBody, ExhibitCredentialSchema, GatewayMessageSchema, SDK_PROTOCOL_VERSION, SdkMessageSchema } from './sdk-protocol.js';

/**
 * The exhibit SDK protocol's zod schemas as JSON Schema (draft 2020-12), for SDKs in other
 * languages and their tests. `npm run schemas` writes them to packages/shared/protocol/
 * exhibit-sdk.schema.json; protocol-json-schema.test.ts fails when that file is out of date.
 * Refinements (duplicate ids, a default among the items) are not expressible there: the
 * conformance scenarios beside it cover them.
 */
export function exhibitSdkJsonSchemas() {
  return {
    $comment: 'Generated from packages/shared/src/sdk-protocol.ts and api/manifest.ts by `npm run schemas`: do not edit.',
    protocolVersion: SDK_PROTOCOL_VERSION,
    /** Messages an SDK sends (as it may write them: defaults may be left out). */
    SdkMessage: z.toJSONSchema(SdkMessageSchema, { io: 'input' }),
    /** Messages the server sends to an exhibit. */
    GatewayMessage: z.toJSONSchema(GatewayMessageSchema, { io: 'output' }),
    /** The manifest as the SDKs send it (normalized: defaults filled in). */
    Manifest: z.toJSONSchema(ManifestSchema, { io: 'output' }),
    /** POST /api/v1/auth/exhibit/authenticate: body and answer. */
    ExhibitAuthenticateBody: z.toJSONSchema(ExhibitAuthenticateBody, { io: 'input' }),
    ExhibitCredential: z.toJSONSchema(ExhibitCredentialSchema, { io: 'output' }),
  };
}

/** The file's text: the schemas as pretty JSON with a final newline. */
export function exhibitSdkJsonSchemaText(): string {
  return `${JSON.stringify(exhibitSdkJsonSchemas(), null, 2)}\n`;
}
