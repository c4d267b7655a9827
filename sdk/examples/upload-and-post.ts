import { createClient } from '@slotline/sdk';
import { uploadFile } from '@slotline/sdk/upload';

export async function main(options: {
  baseUrl: string;
  apiKey: string;
  file: string;
  accountId: string;
}) {
  const api = createClient({ baseUrl: options.baseUrl, apiKey: options.apiKey });

  // Sends the file and returns once the service has validated it (status `ready`).
  const upload = await uploadFile(api, {
    path: options.file,
    onProgress: (sent, total) => console.log(`uploaded ${sent} of ${total} bytes`),
  });

  const { data: post } = await api.POST('/v2/posts', {
    body: {
      media: [upload.uploadId],
      accountIds: [options.accountId],
      caption: 'First post from the SDK',
      skipApproval: true,
    },
  });
  console.log(`post ${post!.postId} is ${post!.status}`);
  return post!;
}
