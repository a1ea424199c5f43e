import { loadConfig } from '../../config.js';
import { openDatabase } from '../../db/client.js';
import { loadDotEnv } from '../../lib/dotenv.js';
import { verifyAuditChains, type ChainReport } from './audit-verify.js';

export const AUDIT_USAGE = `  plinth audit verify             checks every organization's audit chain; exits 1 and names the first broken entry when one was tampered with`;

type Output = { write: (text: string) => unknown };

/** `plinth audit verify`: answers the exit code (0 every chain holds, 1 one does not, 2 a usage error). */
export async function runAuditCli(args: string[], io: { out: Output; err: Output }): Promise<number> {
  if (args.length !== 1 || args[0] !== 'verify') {
    io.err.write(`plinth: unknown audit command\nUsage:\n${AUDIT_USAGE}\n`);
    return 2;
  }
  loadDotEnv();
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, holder: 'command line' });
  try {
    await database.migrate();
    const reports = await verifyAuditChains(database.db);
    for (const report of reports) io.out.write(`${describeChain(report)}\n`);
    const broken = reports.filter((r) => r.problem);
    const entries = reports.reduce((sum, r) => sum + r.entries, 0);
    if (broken.length) {
      io.err.write(`plinth: audit log TAMPERED: ${broken.length} of ${reports.length} chains broken\n`);
      return 1;
    }
    io.out.write(`OK: ${reports.length} chains, ${entries} entries verified\n`);
    return 0;
  } finally {
    await database.close();
  }
}

function describeChain(report: ChainReport): string {
  const where = `organization ${report.organizationId}`;
  if (report.problem) {
    const entry = report.problem.id ? `entry ${report.problem.sequence} (id ${report.problem.id})` : `entry ${report.problem.sequence}`;
    return `BROKEN ${where}: ${entry}: ${report.problem.reason}; ${report.entries} entries before it hold`;
  }
  return `ok ${where}: ${report.entries} entries, head ${report.lastSequence} ${report.lastHash}`;
}
