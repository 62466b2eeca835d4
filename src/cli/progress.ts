/** @module A progress line for long commands: redrawn on a terminal, periodic lines otherwise. */

export interface Progress {
  tick(done: number, note: string): void;
  finish(note: string): void;
}

export function createProgress(label: string, total: number, stream = process.stderr): Progress {
  const tty = Boolean(stream.isTTY);
  const started = Date.now();
  let lastPrinted = -1;
  const render = (done: number, note: string) => {
    const pct = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 100;
    const width = 24;
    const filled = Math.round((pct / 100) * width);
    const rate = done / Math.max(0.001, (Date.now() - started) / 1000);
    return `${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${pct}% ${done}/${total} ${rate.toFixed(0)}/s ${note}`;
  };
  return {
    tick(done, note) {
      if (tty) {
        stream.write(`\r${render(done, note)}\x1b[K`);
        return;
      }
      const decile = total > 0 ? Math.floor((done / total) * 10) : 10;
      if (decile > lastPrinted) {
        lastPrinted = decile;
        stream.write(`${render(done, note)}\n`);
      }
    },
    finish(note) {
      stream.write(`${tty ? "\r" : ""}${render(total, note)}${tty ? "\x1b[K" : ""}\n`);
    },
  };
}
