// The API reference is generated from the code (issue 12): typedoc, with its own TypeScript 5.9
// in tools/typedoc (the repository's TypeScript 7 has no compiler API), validates the public
// entry points (kernforge and kernforge/generator, tools/typedoc/typedoc.json) without writing
// anything (--emit none). Every export they reach, interface properties and class members
// included, must carry a TSDoc comment: no "does not have any documentation" warning, and no
// error. `npm run docs` writes the same reference to docs/api.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const tool = join(root, 'tools/typedoc');
const typedocBin = join(tool, 'node_modules/typedoc/bin/typedoc');

/** Install the pinned typedoc from tools/typedoc/package-lock.json when it is not there yet. */
function ensureTypedoc(): void {
  if (existsSync(typedocBin)) return;
  const r = spawnSync('npm', ['ci', '--prefix', tool, '--prefer-offline', '--no-audit', '--no-fund'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm ci --prefix tools/typedoc failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stdout}${r.stderr}`);
}

describe('API reference (typedoc)', () => {
  it('documents every export of kernforge and kernforge/generator', () => {
    ensureTypedoc();
    const r = spawnSync(process.execPath, [typedocBin, '--options', join(tool, 'typedoc.json'), '--emit', 'none', '--validation.notDocumented'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    const lines = `${r.stdout}${r.stderr}`.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
    const errors = lines.filter((l) => l.startsWith('[error]'));
    const undocumented = lines.filter((l) => l.includes('does not have any documentation'));
    const first = (xs: string[]) => xs.slice(0, 20).join('\n') + (xs.length > 20 ? `\n... and ${xs.length - 20} more` : '');
    expect(errors, `typedoc errors:\n${first(errors)}`).toEqual([]);
    expect(undocumented, `${undocumented.length} exports without a TSDoc comment (run npm run docs):\n${first(undocumented)}`).toEqual([]);
    expect(r.status, `typedoc exited with ${r.status}:\n${lines.slice(-20).join('\n')}`).toBe(0);
  }, 300_000);
});
