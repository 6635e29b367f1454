// Progress of a tuning session on stderr: a bar with ETA (cli-progress) on a terminal, or, when
// stderr is not a TTY or CI=true, one plain line every `every` evaluations.
import cliProgress from 'cli-progress';

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

const interactive = (): boolean => Boolean(process.stderr.isTTY) && process.env.CI !== 'true' && process.env.CI !== '1';

/** The default progress: a bar on a terminal, periodic lines otherwise; `quiet` prints nothing. */
export function createProgress(o: { every?: number; quiet?: boolean } = {}): Progress {
  if (o.quiet) return { start() {}, tick() {}, setTotal() {}, log() {}, stop() {} };
  if (interactive()) {
    const bar = new cliProgress.SingleBar(
      { format: 'tuning [{bar}] {value}/{total} | ETA {eta_formatted} | {label}', stream: process.stderr, hideCursor: true, etaBuffer: 20, clearOnComplete: true, fps: 5 },
      cliProgress.Presets.shades_classic,
    );
    let done = 0;
    let started = false;
    return {
      start(total) {
        bar.start(Math.max(total, 1), 0, { label: '' });
        started = true;
      },
      tick(label) {
        done++;
        bar.update(done, { label: label.length > 60 ? `...${label.slice(-57)}` : label });
      },
      setTotal(total) {
        bar.setTotal(Math.max(total, done, 1));
      },
      log(line) {
        if (started) {
          process.stderr.write('\r\x1b[K');
          process.stderr.write(`${line}\n`);
          bar.render();
        } else process.stderr.write(`${line}\n`);
      },
      stop() {
        if (started) bar.stop();
        started = false;
      },
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
        process.stderr.write(`tuning: ${done}/${total} evaluations, ${el.toFixed(0)} s${eta} (${label})\n`);
      }
    },
    setTotal(t) {
      total = Math.max(t, done);
    },
    log(line) {
      process.stderr.write(`${line}\n`);
    },
    stop() {},
  };
}
