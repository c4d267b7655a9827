// The decode oracle of the differential fuzz (issue 9): can the packaged ffmpeg, the one
// that makes thumbnails (src/media/thumbnails.ts), decode the first frame of a file?
//
// ffmpeg is confined as the thumbnail path confines it (mov demuxer forced, file
// protocol only, one thread, no stdin, empty environment) and writes one CRC line per
// decoded frame (`framecrc`), so "decoded" means a frame came out, not merely exit 0.
// Errors ffmpeg conceals (a damaged slice decoded with gaps) still count as decoded:
// the thumbnail is then made, which is what `ready` promises.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import ffmpeg from '@ffmpeg-installer/ffmpeg';
import { FFMPEG_CONFINEMENT } from '../src/media/thumbnails.ts';

/** Generous: a 16x16 first frame decodes in ~40 ms, a 4K one in ~300 ms. */
const DECODE_TIMEOUT_MS = 15_000;
const OUTPUT_LIMIT = 1 << 20;

export interface Decode {
  decoded: boolean;
  /** Exit status and the end of ffmpeg's error output, for reports. */
  detail: string;
}

export function decodeFirstFrame(path: string): Promise<Decode> {
  const args = [
    ...FFMPEG_CONFINEMENT,
    '-i',
    `file:${resolve(path)}`,
    '-map',
    '0:v:0',
    '-frames:v',
    '1',
    '-f',
    'framecrc',
    '-',
  ];
  return new Promise((done) => {
    const child = spawn(ffmpeg.path, args, { env: {}, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), DECODE_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < OUTPUT_LIMIT) stdout += chunk.toString('latin1');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < OUTPUT_LIMIT) stderr += chunk.toString('latin1');
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const frames = stdout.split('\n').filter((line) => /^\d+,/.test(line)).length;
      const tail = stderr.trim().split('\n').slice(-3).join(' | ');
      done({
        decoded: code === 0 && frames > 0,
        detail: `exit ${signal ?? code}, ${frames} frame(s)${tail ? `: ${tail}` : ''}`,
      });
    });
  });
}
