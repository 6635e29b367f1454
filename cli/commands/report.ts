// `kernforge report [--cache dir] [-o report.html]`: one self-contained HTML page (Chart.js
// inlined, no network) from every tune cache file in the cache folder, all devices together.
// See runtime/tune/report.ts for what the page shows.
import type { Command } from 'commander';
import { UserError } from '../../runtime/errors.ts';

export interface ReportCommandOptions {
  cache?: string;
  output?: string;
  seeds?: string | number;
  assumeExhaustive?: boolean;
  log?: (line: string) => void;
}

/** Build and write the report; returns the exit status (0). Bad input ends as a UserError. */
export async function reportCommand(o: ReportCommandOptions = {}): Promise<number> {
  const { writeReport, ReportInputError, DEFAULT_CACHE_DIR } = await import('../../runtime/tune/report.ts');
  const seeds = o.seeds === undefined ? 9 : Number(o.seeds);
  if (!Number.isInteger(seeds) || seeds < 1 || seeds > 1000) throw new UserError(`--seeds must be an integer from 1 to 1000, got ${o.seeds}`);
  const log = o.log ?? ((m: string) => console.log(m));
  const output = o.output ?? 'report.html';
  (await import('../../runtime/output.ts')).checkOutputFile(output, '-o'); // before reading the caches
  try {
    const r = await writeReport({ cacheDir: o.cache ?? DEFAULT_CACHE_DIR, output, seeds, assumeExhaustive: !!o.assumeExhaustive });
    const d = r.data;
    const results = d.devices.reduce((n, x) => n + Object.values(x.counts).reduce((a, b) => a + b, 0), 0);
    log(`read ${d.devices.length} tune cache file(s) from ${d.cacheDir}: ${results} results, ${d.devices.reduce((n, x) => n + x.runs, 0)} runs`);
    log(`  devices: ${d.devices.map((x) => x.label).join('; ')}`);
    log(`  charts: ${d.variants.length} variant, ${d.axes.length} parameter, ${d.convergence.length} convergence, 1 device comparison`);
    log(`wrote ${r.output} (${(r.bytes / 1024).toFixed(0)} KiB, self-contained)`);
    return 0;
  } catch (e) {
    if (e instanceof ReportInputError) throw new UserError(e.message);
    throw e;
  }
}

export function registerReport(program: Command): void {
  program
    .command('report')
    .description('write one self-contained HTML page from the tune cache files of every device (times per variant, per tuning axis, search convergence, devices side by side)')
    .option('--cache <dir>', 'tune cache folder', '.kernforge/tune')
    .option('-o, --output <file>', 'HTML file to write', 'report.html')
    .option('--seeds <n>', 'seeds per strategy for the offline replays', '9')
    .option('--assume-exhaustive', 'replay over every result set, not only those with a finished exhaustive run')
    .action(async (o: ReportCommandOptions) => {
      await reportCommand(o);
    });
}
