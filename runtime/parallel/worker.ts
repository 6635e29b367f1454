// The task loop of a pool worker: each message names a task of tasks.ts; the reply carries its
// result or its error.
import { parentPort, receiveMessageOnPort } from 'node:worker_threads';
import { TASKS } from './tasks.ts';
import { setRunPosted } from './md.ts';

const port = parentPort!;
type TaskMessage = { id: number; task: string; args: Record<string, unknown> };
const fail = (m: TaskMessage, e: unknown): void => port.postMessage({ id: m.id, error: (e as Error).message ?? String(e), stack: (e as Error).stack });

/** Run the task a message names and reply with its result or error (once a promise settles). */
function handle(m: TaskMessage): void {
  try {
    const f = TASKS[m.task];
    if (!f) throw new Error(`unknown task ${m.task}`);
    const result = f(m.args);
    if (result instanceof Promise) result.then((v) => port.postMessage({ id: m.id, result: v }), (e) => fail(m, e));
    else port.postMessage({ id: m.id, result });
  } catch (e) {
    fail(m, e);
  }
}

port.on('message', handle);
// The MD workers' spin loop runs the tasks posted to it without returning here (OP_TASKS): every
// message queued, in order; the tasks sent so are synchronous.
setRunPosted(() => {
  for (let r = receiveMessageOnPort(port); r; r = receiveMessageOnPort(port)) handle(r.message as TaskMessage);
});
