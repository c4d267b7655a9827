// Upload progress on stderr: a bar redrawn in place on a terminal, otherwise one plain
// line each time another tenth of the file has gone out.

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** `42% 1.2 MB / 2.9 MB 3.4 MB/s`: percent, bytes sent of the total, and the mean rate. */
export function progressText(sent: number, total: number, elapsedMs: number): string {
  const percent = total > 0 ? Math.floor((sent * 100) / total) : 100;
  const rate = elapsedMs > 0 ? (sent * 1000) / elapsedMs : 0;
  return `${percent}% ${formatBytes(sent)} / ${formatBytes(total)} ${formatBytes(rate)}/s`;
}

const BAR_WIDTH = 24;
const REDRAW_MS = 100;

/** Returns the onProgress callback and a `done` that ends the bar's line. */
export function progressReporter(
  write: (text: string) => void,
  isTty: boolean,
  now: () => number = Date.now,
): { onProgress: (sent: number, total: number) => void; done: () => void } {
  const started = now();
  let lastDraw = -Infinity;
  let lastTenth = -1;
  let drawn = false;
  return {
    onProgress(sent, total) {
      const elapsed = now() - started;
      const text = progressText(sent, total, elapsed);
      if (isTty) {
        const finished = sent >= total;
        if (!finished && now() - lastDraw < REDRAW_MS) return;
        lastDraw = now();
        const filled = total > 0 ? Math.round((sent / total) * BAR_WIDTH) : BAR_WIDTH;
        const bar = '#'.repeat(filled) + '-'.repeat(BAR_WIDTH - filled);
        write(`\r[${bar}] ${text}\x1b[K`);
        drawn = true;
        return;
      }
      const tenth = total > 0 ? Math.floor((sent * 10) / total) : 10;
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      write(`uploaded ${text}\n`);
    },
    done() {
      if (drawn) write('\n');
      drawn = false;
    },
  };
}
