// The entry of a browser task worker (runtime/platform/browser.ts starts it as a module Web
// Worker): the first message gives the assets folder and environment; the worker installs a
// browser platform of its own (the manifest fetched, no preloads, no storage), then runs the task
// loop of runtime/parallel/worker.ts's Node counterpart: each message names a task of tasks.ts,
// the reply carries its result or its error. Messages that arrive while it starts wait for it.
// scripts/build.mjs bundles it into dist/runtime/platform/browser-worker.js (self-contained).
import { installBrowserPlatform } from './browser.ts';
import { isSharedChannelPort, sharedChannelSender } from './shared-channel.ts';

type TaskMessage = { id: number; task: string; args: Record<string, unknown> };
const scope = globalThis as unknown as { onmessage: ((e: MessageEvent) => void) | null; postMessage(m: unknown): void };
const early: TaskMessage[] = [];
let run: ((m: TaskMessage) => Promise<void>) | undefined;

scope.onmessage = (e: MessageEvent) => {
  const d = e.data as { kernforgeInit?: { assets: string; env: Record<string, string> } } & TaskMessage;
  if (d.kernforgeInit) {
    void start(d.kernforgeInit);
    return;
  }
  // a shared channel's port (runtime/platform/shared-channel.ts) becomes its sending end
  for (const [k, v] of Object.entries(d.args ?? {})) if (isSharedChannelPort(v)) d.args[k] = sharedChannelSender(v);
  if (run) void run(d);
  else early.push(d);
};

async function start(init: { assets: string; env: Record<string, string> }): Promise<void> {
  let failed: string | undefined;
  let tasks: Record<string, (args: Record<string, unknown>) => unknown> = {};
  try {
    await installBrowserPlatform({ assets: init.assets, env: init.env, preload: false, storage: false });
    tasks = (await import('../parallel/tasks.ts')).TASKS as typeof tasks;
  } catch (e) {
    failed = `the worker could not start: ${(e as Error).message}`;
  }
  run = async (m) => {
    try {
      if (failed) throw new Error(failed);
      const f = tasks[m.task];
      if (!f) throw new Error(`unknown task ${m.task}`);
      scope.postMessage({ id: m.id, result: await f(m.args) });
    } catch (e) {
      scope.postMessage({ id: m.id, error: (e as Error).message ?? String(e), stack: (e as Error).stack });
    }
  };
  for (const m of early.splice(0)) void run(m);
}
