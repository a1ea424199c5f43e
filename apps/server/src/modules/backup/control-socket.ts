import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import type { Logger } from 'pino';
import { BackupError, writeBackup, type BackupSource, type BackupSummary } from './backup.service.js';

/**
 * With the embedded database only the server may open DATA_DIR, so `plinth backup` asks the running
 * server to write the archive: over a Unix socket in DATA_DIR (mode 0600: whoever may use it may
 * read the data folder anyway). One JSON line asks, JSON lines answer: steps, then the outcome.
 */
export const CONTROL_SOCKET = 'plinth.sock';

type Request = { command: 'backup'; file: string };
type Answer = { step: string } | { ok: true; summary: BackupSummary } | { ok: false; error: string };

export const controlSocketPath = (dataDir: string) => path.join(dataDir, CONTROL_SOCKET);

/** Listens on DATA_DIR/plinth.sock; answers the stop function. */
export async function startControlSocket(input: { source: BackupSource; dataDir: string; logger: Logger }): Promise<{ stop: () => Promise<void> }> {
  const file = controlSocketPath(input.dataDir);
  // A socket file left by a server that died is in the way (DATA_DIR is locked to this process).
  await fs.promises.rm(file, { force: true });
  const server = net.createServer((socket) => {
    const send = (answer: Answer) => socket.write(`${JSON.stringify(answer)}\n`);
    const lines = readline.createInterface({ input: socket });
    lines.once('line', (line) => {
      lines.close();
      void handle(line, send, input).finally(() => socket.end());
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => resolve());
  });
  await fs.promises.chmod(file, 0o600);
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        void fs.promises.rm(file, { force: true });
      }),
  };
}

async function handle(line: string, send: (answer: Answer) => void, input: { source: BackupSource; logger: Logger }) {
  let request: Request;
  try {
    request = JSON.parse(line) as Request;
  } catch {
    send({ ok: false, error: 'not a request' });
    return;
  }
  if (request.command !== 'backup' || typeof request.file !== 'string' || !path.isAbsolute(request.file)) {
    send({ ok: false, error: 'expected {"command":"backup","file":<absolute path>}' });
    return;
  }
  try {
    const summary = await writeBackup(input.source, request.file, (step) => send({ step }));
    input.logger.info(`Backup written to ${summary.file} (${summary.rows} rows, ${summary.files} files)`);
    send({ ok: true, summary });
  } catch (error) {
    input.logger.warn({ err: error }, 'A backup requested from the command line failed');
    send({ ok: false, error: (error as Error).message });
  }
}

/** Asks the server holding `dataDir` for a backup to `file`; `onStep` gets its steps. */
export function requestBackup(dataDir: string, file: string, onStep: (step: string) => void): Promise<BackupSummary> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(controlSocketPath(dataDir));
    let settled = false;
    const lines = readline.createInterface({ input: socket });
    lines.on('line', (line) => {
      const answer = JSON.parse(line) as Answer;
      if ('step' in answer) onStep(answer.step);
      else {
        settled = true;
        if (answer.ok) resolve(answer.summary);
        else reject(new BackupError(`The server could not write the backup: ${answer.error}`));
      }
    });
    socket.on('error', (error) => reject(new BackupError(`The running server does not answer on ${controlSocketPath(dataDir)}: ${error.message}`)));
    socket.on('close', () => {
      if (!settled) reject(new BackupError('The running server closed the connection before the backup was written.'));
    });
    socket.write(`${JSON.stringify({ command: 'backup', file } satisfies Request)}\n`);
  });
}
