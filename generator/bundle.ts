// Bundle a family's TypeScript variants into one ESM file with esbuild. Paths in the
// bundle are relative to the output root so the result does not depend on where it ran.
import { build } from 'esbuild';

export async function bundle(root: string, entry: string): Promise<string> {
  const r = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  return r.outputFiles[0]!.text;
}
