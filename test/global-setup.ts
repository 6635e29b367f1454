// Every test file's temporary folders (mkdtemp under os.tmpdir(): outputs, caches, browser
// profiles, Slurm state, the children's files) go into one folder per test run, removed when the
// run ends, so a run leaves nothing in the machine's /tmp (a full run makes about 170 folders,
// 0.8 GB). The test processes and everything they start inherit TMPDIR from here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const before = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'kernforge-tests-'));
  process.env.TMPDIR = dir;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  };
}
