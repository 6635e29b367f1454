// The task loop of a pool worker: each message names a task of tasks.ts; the reply carries its
// result or its error.
import { parentPort } from 'node:worker_threads';
import { TASKS } from './tasks.ts';

const port = parentPort!;
port.on('message', async (m: { id: number; task: string; args: Record<string, unknown> }) => {
  try {
    const f = TASKS[m.task];
    if (!f) throw new Error(`unknown task ${m.task}`);
    const result = await f(m.args);
    port.postMessage({ id: m.id, result });
  } catch (e) {
    port.postMessage({ id: m.id, error: (e as Error).message ?? String(e), stack: (e as Error).stack });
  }
});
