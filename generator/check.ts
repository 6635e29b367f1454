// Type-check generated TypeScript in memory with ts-morph. Any diagnostic is a generator
// bug (templates or context), so the build fails with the file and message.
import { Project, ts } from 'ts-morph';

/** A generated file to check (generate.ts's OutFile has these fields). */
export interface CheckedFile {
  path: string;
  text: string;
}

export function typeCheck(files: readonly CheckedFile[]): string[] {
  if (files.length === 0) return [];
  const project = new Project({
    useInMemoryFileSystem: true,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      allowImportingTsExtensions: true,
      noEmit: true,
      strict: true,
      noUnusedLocals: false,
      lib: ['lib.es2022.d.ts'],
      types: [],
    },
  });
  for (const f of files) project.createSourceFile(`/g/${f.path}`, f.text);
  return project.getPreEmitDiagnostics().map((d) => {
    const sf = d.getSourceFile();
    const line = sf && d.getStart() !== undefined ? sf.getLineAndColumnAtPos(d.getStart()!).line : 0;
    const msg = ts.flattenDiagnosticMessageText(d.getMessageText() as string | ts.DiagnosticMessageChain, '\n');
    return `${sf ? sf.getFilePath().slice(3) : '?'}:${line}: ${msg}`;
  });
}
