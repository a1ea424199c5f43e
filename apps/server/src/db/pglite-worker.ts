import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { openPglite } from './pglite-open.js';
import { fromWireOptions, toWireError, type WireRequest, type WireAnswer } from './pglite-wire.js';

/**
 * The embedded database's own thread (db/pglite-thread.ts starts it): PGlite runs its
 * WebAssembly PostgreSQL here, so a batch of writes or a report's query does not hold up the
 * thread that serves boards, exhibits and consoles. Each request answers by its id; a
 * transaction stays open across requests until the main thread ends it.
 */
const port = parentPort!;
const { dataDir } = workerData as { dataDir: string };

type OpenTransaction = { tx: Transaction; end: (commit: boolean) => void; finished: Promise<void> };
const transactions = new Map<number, OpenTransaction>();
const ROLLED_BACK = new Error('rolled back by the caller');

const answer = (message: WireAnswer) => port.postMessage(message);

async function serve(db: PGlite, request: WireRequest): Promise<unknown> {
  switch (request.op) {
    case 'query':
      return targetOf(db, request.tx).query(request.sql, request.params, fromWireOptions(request.options));
    case 'exec':
      return targetOf(db, request.tx).exec(request.sql);
    case 'begin':
      return begin(db, request.id);
    case 'end': {
      const open = transactionOf(request.tx);
      open.end(request.commit);
      try {
        await open.finished;
      } catch (error) {
        if (error !== ROLLED_BACK) throw error;
      } finally {
        transactions.delete(request.tx);
      }
      return null;
    }
    case 'close':
      await db.close();
      return null;
  }
}

/** The database, or the open transaction `tx` a request names. */
function targetOf(db: PGlite, tx: number | undefined): PGlite | Transaction {
  return tx === undefined ? db : transactionOf(tx).tx;
}

function transactionOf(id: number): OpenTransaction {
  const open = transactions.get(id);
  if (!open) throw new Error(`no open transaction ${id}`);
  return open;
}

/**
 * Opens a transaction (waiting, as PGlite does, for the one before to end) and answers once it
 * is open; the `end` request commits or rolls it back and answers when PGlite has.
 */
function begin(db: PGlite, id: number): Promise<unknown> {
  return new Promise((opened) => {
    const finished: Promise<void> = db.transaction(
      (tx) =>
        new Promise<void>((resolve, reject) => {
          transactions.set(id, { tx, end: (commit) => (commit ? resolve() : reject(ROLLED_BACK)), finished });
          opened(null);
        }),
    );
    // Handled by the `end` request; this keeps an unanswered rejection from being reported.
    finished.catch(() => undefined);
  });
}

async function main(): Promise<void> {
  let db: PGlite;
  try {
    db = await openPglite(dataDir);
  } catch (error) {
    answer({ id: 0, error: toWireError(error) });
    return;
  }
  answer({ id: 0, result: null });
  port.on('message', (request: WireRequest) => {
    serve(db, request).then(
      (result) => answer({ id: request.id, result }),
      (error: unknown) => answer({ id: request.id, error: toWireError(error) }),
    );
  });
}

void main();
