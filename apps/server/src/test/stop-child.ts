import type { ChildProcess } from 'node:child_process';

/** Stops a child process (a server under test or bench): SIGTERM, SIGKILL after `killAfterMs`; answers once it has exited. */
export async function stopChild(child: ChildProcess, killAfterMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  await exited;
  clearTimeout(timer);
}
