// Tuned artefacts (kernforge-tuned.json, runtime/tune/tuned.ts) for the report: each device of an
// artefact becomes a tune cache (runtime/tune/cache.ts's format) holding its winners and their
// defaults as measured results, so that runtime/tune/report.ts draws them, devices side by side,
// beside the caches of this browser. An artefact that is not one is named in one line.
import type { LoadedCache, TuneCacheFile } from '../../runtime/tune/report.ts';
import { checkTunedFile } from '../../runtime/tune/tuned.ts';

/** One cache per device of a kernforge-tuned file (`name`: the file, for messages). */
export function cachesFromTuned(data: unknown, name: string): LoadedCache[] {
  const f = checkTunedFile(name, data);
  const out: LoadedCache[] = [];
  for (const [fp, families] of Object.entries(f.tuned)) {
    const d = f.devices[fp];
    const results: TuneCacheFile['results'] = {};
    for (const [family, problems] of Object.entries(families)) {
      for (const [problem, e] of Object.entries(problems)) {
        results[`${family}|${problem}|${e.key}`] = { family, problem, key: e.key, status: 'ok', medianMs: e.medianMs, params: {}, at: e.when, detail: `tuned winner (${name})` };
        if (e.defaultKey && e.defaultMs !== null && e.defaultKey !== e.key) {
          results[`${family}|${problem}|${e.defaultKey}`] = { family, problem, key: e.defaultKey, status: 'ok', medianMs: e.defaultMs, params: {}, at: e.when, detail: `default (${name})` };
        }
      }
    }
    out.push({ file: `${name} (${fp.slice(0, 8)})`, cache: { format: 'kernforge-tune-cache', version: 1, device: { fingerprint: fp, id: d?.id ?? '?', target: d?.target ?? '?', name: d?.name ?? fp }, results, runs: [] } });
  }
  return out;
}
