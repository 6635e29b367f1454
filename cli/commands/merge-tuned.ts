// `kernforge merge-tuned a.json b.json [...] -o lib.json`: join the tuned artefacts of several
// machines into one library (runtime/tune/tuned.ts mergeTuned). Every input must be a
// kernforge-tuned version 1 file, else the command ends with one line naming the file (exit 2)
// and writes nothing; so does an -o file that exists and is not a kernforge-tuned file, unless
// --force (the output policy, runtime/output.ts). Different fingerprints are unioned; for the
// same fingerprint, family and problem the later `when` wins, with one line per conflict saying
// which file won. Then a short summary: the devices and their entries.
import type { Command } from 'commander';
import { resolve } from 'node:path';

export interface MergeTunedOptions {
  out: string;
  /** Replace an -o file that is not a kernforge-tuned file. */
  force?: boolean;
  log?: (line: string) => void;
}

/** Merge the artefacts and write the result; returns the exit status (0). Bad input: a TunedFileError (exit 2). */
export async function mergeTunedCommand(files: readonly string[], o: MergeTunedOptions): Promise<number> {
  const { mergeTuned, readTunedFile } = await import('../../runtime/tune/tuned.ts');
  const { writeFileAtomic } = await import('../../runtime/files.ts');
  const { checkReplace, formatRule } = await import('../../runtime/output.ts');
  const { TUNED_FORMAT } = await import('../../runtime/tune/tuned.ts');
  const log = o.log ?? ((m: string) => console.log(m));
  checkReplace(o.out, formatRule(TUNED_FORMAT, 1, o.force), '-o'); // the output policy (runtime/output.ts)
  const inputs = files.map((path) => ({ path, file: readTunedFile(path) }));
  const r = mergeTuned(inputs);
  for (const l of r.replaced) log(l);
  const out = resolve(o.out);
  writeFileAtomic(out, `${JSON.stringify(r.file, null, 1)}\n`);
  const fps = [...new Set([...Object.keys(r.file.devices), ...Object.keys(r.file.tuned)])];
  const total = fps.reduce((n, fp) => n + Object.values(r.file.tuned[fp] ?? {}).reduce((m, probs) => m + Object.keys(probs).length, 0), 0);
  log(`merged ${files.length} file(s) into ${out}: ${fps.length} device(s), ${total} entries${r.replaced.length ? `, ${r.replaced.length} conflict(s) resolved by the later \`when\`` : ''}`);
  for (const fp of fps) {
    const d = r.file.devices[fp];
    const fams = r.file.tuned[fp] ?? {};
    const n = Object.values(fams).reduce((m, probs) => m + Object.keys(probs).length, 0);
    const what = d ? `${d.id} ${d.name}${d.vendor || d.architecture ? ` [${[d.vendor, d.architecture].filter(Boolean).join(' ')}]` : ''}` : 'unknown device';
    const perFamily = Object.entries(fams).map(([f, probs]) => `${f} ${Object.keys(probs).length}`).join(', ');
    log(`  ${fp} ${what}: ${n} entr${n === 1 ? 'y' : 'ies'}${perFamily ? ` (${perFamily})` : ''}`);
  }
  return 0;
}

export function registerMergeTuned(program: Command): void {
  program
    .command('merge-tuned')
    .description('join kernforge-tuned artefacts of several machines into one (fingerprints unioned; the later `when` wins a conflict)')
    .argument('<files...>', 'kernforge-tuned.json files (version 1)')
    .requiredOption('-o, --out <file>', 'the merged artefact to write')
    .option('--force', 'replace an -o file that is not a kernforge-tuned file')
    .action(async (files: string[], o: MergeTunedOptions) => {
      await mergeTunedCommand(files, o);
    });
}
