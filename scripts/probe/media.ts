// The probe's "media work across a crash" section: a third service process, started on the
// probe's database with short media-job leases, acknowledges eight carousels (ten slides,
// six text elements each) and is killed with SIGKILL a moment later. The probe's two
// processes are left to finish them: the section counts the carousels still `processing`
// at the kill and after two minutes (any still processing then is a defect), and prints how
// long the last one took.
import { validAccount } from '../../test/helpers/app.ts';
import { startReplicas } from '../../test/helpers/replicas.ts';
import { readyImage } from './basics.ts';
import type { ProbeRun, Section } from './section.ts';

const CAROUSELS = 8;
const WITHIN_MS = 120_000;

function carousel(image: string, accountIds: string[], i: number) {
  return {
    media: [image],
    accountIds,
    caption: `crash probe ${i}`,
    slides: Array.from({ length: 10 }, (_, n) => ({
      image,
      textElements: Array.from({ length: 6 }, (_, e) => ({
        content: `Slide ${n + 1}, line ${e + 1}: a few words to wrap`,
        style: { positionY: 10 + e * 15, textMode: 'background', fontSize: 20 },
      })),
    })),
  };
}

async function probeMediaCrash(probe: ProbeRun): Promise<void> {
  const call = probe.calls[0];
  if (!call) return;
  const account = await call('POST', '/v2/accounts', validAccount());
  const image = await readyImage(call, probe.bases[0] as string);
  // Only the killed process's claim has to run out: it takes its claims with 3 s leases.
  // On the media store the probe's processes share.
  const third = await startReplicas(1, { ...probe.env, MEDIA_JOB_LEASE_MS: '3000' }, () => ({
    DATA_DIR: '/tmp/probe-0',
  }));
  const replica = third.replicas[0];
  if (!replica) return;
  const headers = {
    authorization: `Bearer ${probe.keySecret}`,
    'content-type': 'application/json',
  };
  let ids: string[] = [];
  try {
    ids = await Promise.all(
      Array.from({ length: CAROUSELS }, async (_, i) => {
        const res = await fetch(`${replica.url}/v2/posts`, {
          method: 'POST',
          headers,
          body: JSON.stringify(carousel(image, [account.body.accountId as string], i)),
        });
        const body = (await res.json()) as { postId?: string };
        if (res.status !== 201 || !body.postId) {
          probe.defect(`media crash: create answered ${res.status}`);
        }
        return body.postId ?? '';
      }),
    );
  } finally {
    replica.child.kill('SIGKILL');
    await third.stop();
  }
  ids = ids.filter(Boolean);
  const statusOf = async (id: string) =>
    ((await call('GET', `/v2/posts/${id}`)).body as { status: string }).status;
  const atKill = (await Promise.all(ids.map(statusOf))).filter((s) => s === 'processing').length;
  const started = Date.now();
  let left = atKill;
  let failed = 0;
  while (Date.now() - started < WITHIN_MS) {
    const statuses = await Promise.all(ids.map(statusOf));
    left = statuses.filter((s) => s === 'processing').length;
    failed = statuses.filter((s) => s === 'failed').length;
    if (left === 0) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  console.log(
    `media work across a crash: ${ids.length} carousels acknowledged, ${atKill} processing at the ` +
      `SIGKILL, ${left} still processing ${Math.round((Date.now() - started) / 1000)} s later, ` +
      `${failed} failed`,
  );
  if (left > 0) probe.defect(`media crash: ${left} carousels still processing after the kill`);
  if (failed > 0) probe.defect(`media crash: ${failed} carousels failed instead of rendering`);
}

export const mediaSections: Section[] = [
  { name: 'media work across a crash', run: probeMediaCrash },
];
