import { createClient } from '@slotline/sdk';

export async function main(options: { baseUrl: string; apiKey: string; accountId: string }) {
  const api = createClient({ baseUrl: options.baseUrl, apiKey: options.apiKey });

  // Follows `nextCursor` page by page (here 50 a page) until the list ends.
  const postIds: string[] = [];
  for await (const post of api.paginate('/v2/posts', {
    params: { query: { accountId: options.accountId, limit: 50 } },
  })) {
    postIds.push(post.postId);
  }
  console.log(`${postIds.length} posts for ${options.accountId}`);
  return postIds;
}
