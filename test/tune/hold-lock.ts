// A process that takes a lock file through the Node platform (runtime/platform/lock.ts) and holds
// it, for test/tune/concurrent.test.ts: `node --import tsx test/tune/hold-lock.ts <lock> <ms>`
// prints "held <pid>" once it holds the lock, then holds it `ms` milliseconds (0: until killed)
// and releases it.
import { withLockFile } from '../../runtime/platform/lock.ts';

const [path, ms] = process.argv.slice(2);
withLockFile(path!, () => {
  process.stdout.write(`held ${process.pid}\n`);
  const hold = Number(ms);
  const t = new Int32Array(new SharedArrayBuffer(4));
  if (hold > 0) Atomics.wait(t, 0, 0, hold);
  else for (;;) Atomics.wait(t, 0, 0, 1000);
});
