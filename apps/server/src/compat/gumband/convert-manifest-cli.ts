import fs from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { convertGumbandManifest, ManifestConversionError } from './manifest-converter.js';

export const GUMBAND_USAGE = `  plinth gumband convert-manifest <gumband-manifest.json> [--out <plinth-manifest.json>]
      Writes the equivalent Plinth manifest (stdout, or --out) and lists what changed (stderr).`;

type Output = { write: (text: string) => unknown };

/**
 * `plinth gumband convert-manifest <file>`: for teams moving an exhibit from the Gumband SDK to
 * @plinth/sdk. Needs no database; answers the exit code (1 when the manifest cannot be converted).
 */
export async function runGumbandCli(argv: string[], io: { out: Output; err: Output }): Promise<number> {
  const [action, ...rest] = argv;
  let parsed: ReturnType<typeof parseArgs<{ options: { out: { type: 'string' } }; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: rest, options: { out: { type: 'string' } }, allowPositionals: true, strict: true });
  } catch (error) {
    io.err.write(`plinth: ${(error as Error).message}\n${GUMBAND_USAGE}\n`);
    return 2;
  }
  const [file, ...extra] = parsed.positionals;
  if (action !== 'convert-manifest' || !file || extra.length) {
    io.err.write(`Usage:\n${GUMBAND_USAGE}\n`);
    return 2;
  }
  let input: unknown;
  try {
    input = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (error) {
    io.err.write(`plinth: cannot read ${file} as JSON: ${(error as Error).message}\n`);
    return 1;
  }
  try {
    const { manifest, changes } = convertGumbandManifest(input);
    const text = `${JSON.stringify(manifest, null, 2)}\n`;
    if (parsed.values.out) await fs.writeFile(parsed.values.out, text);
    else io.out.write(text);
    io.err.write(changes.length ? `What changed:\n${changes.map((c) => `  - ${c}`).join('\n')}\n` : 'Nothing changed: the manifest is already a Plinth manifest.\n');
    return 0;
  } catch (error) {
    if (!(error instanceof ManifestConversionError)) throw error;
    io.err.write(`plinth: ${error.message}\n`);
    return 1;
  }
}
