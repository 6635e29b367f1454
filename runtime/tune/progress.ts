// Progress of a tuning session on stderr: a bar with ETA on a terminal (the platform's
// progressBar; Node: cli-progress), or, when stderr is not a TTY, CI=true or the platform has no
// bar, one plain line every `every` evaluations.
import { platform } from '../platform.ts';

export interface Progress {
  start(total: number): void;
  /** One evaluation more (measured or cached); `label` names what is being done now. */
  tick(label: string): void;
  /** Change the total (e.g. when a problem turns out to have fewer candidates). */
  setTotal(total: number): void;
  /** A line of text that must not be garbled by the bar. */
  log(line: string): void;
  stop(): void;
}

const inCi = (): boolean => platform().env('CI') === 'true' || platform().env('CI') === '1';

/** The default progress: a bar on a terminal, periodic lines otherwise; `quiet` prints nothing. */
export function createProgress(o: { every?: number; quiet?: boolean } = {}): Progress {
  if (o.quiet) return { start() {}, tick() {}, setTotal() {}, log() {}, stop() {} };
  const bar = inCi() ? undefined : platform().progressBar?.('tuning [{bar}] {value}/{total} | ETA {eta_formatted} | {label}');
  if (bar) {
    let done = 0;
    return {
      start(total) {
        bar.start(Math.max(total, 1));
      },
      tick(label) {
        done++;
        bar.update(done, label.length > 60 ? `...${label.slice(-57)}` : label);
      },
      setTotal(total) {
        bar.setTotal(Math.max(total, done, 1));
      },
      log: (line) => bar.log(line),
      stop: () => bar.stop(),
    };
  }
  const every = Math.max(1, o.every ?? 10);
  let total = 0;
  let done = 0;
  let t0 = 0;
  return {
    start(t) {
      total = t;
      t0 = performance.now();
    },
    tick(label) {
      done++;
      if (done % every === 0 || done === total) {
        const el = (performance.now() - t0) / 1000;
        const eta = done < total ? `, ETA ${Math.round((el / done) * (total - done))} s` : '';
        platform().stderr(`tuning: ${done}/${total} evaluations, ${el.toFixed(0)} s${eta} (${label})`);
      }
    },
    setTotal(t) {
      total = Math.max(t, done);
    },
    log(line) {
      platform().stderr(line);
    },
    stop() {},
  };
}
