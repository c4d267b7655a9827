import { createClient, SlotlineError } from '@slotline/sdk';

export async function main(options: { baseUrl: string; apiKey: string; postId: string }) {
  const api = createClient({ baseUrl: options.baseUrl, apiKey: options.apiKey });

  try {
    const { data: post } = await api.GET('/v2/posts/{postId}', {
      params: { path: { postId: options.postId } },
    });
    return post!;
  } catch (err) {
    if (!(err instanceof SlotlineError)) throw err;
    // Branch on the stable `code`, never on the message text.
    if (err.code === 'post_not_found') return null;
    console.error(`${err.code} (HTTP ${err.status}): ${err.message}`);
    console.error(`hint: ${err.hint} (request ${err.requestId})`);
    throw err;
  }
}
