import { Type, type Static } from 'typebox';
import { StringEnum } from '../../schemas/common.ts';

export const UploadKind = StringEnum(['video', 'image']);

/**
 * Both forms of SPEC 4.1 in one object, so a wrong field is named precisely;
 * the service enforces which fields each form takes.
 */
export const CreateUploadBody = Type.Object(
  {
    kind: UploadKind,
    filename: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    contentType: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    sizeBytes: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          'Signed form: exact size; videos at most 209,715,200, images at most 52,428,800',
      }),
    ),
    sourceUrl: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: 2048,
        pattern: '^https?://',
        'x-pattern-message': 'must be an http or https URL',
        description: 'Remote form: the service downloads this file itself',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Signed form: `kind`, `filename`, `contentType`, `sizeBytes`; the response gives an ' +
      '`uploadUrl` to `PUT` the bytes to (header `Content-Type` equal to `contentType`, body of ' +
      'exactly `sizeBytes`), then `POST /v2/uploads/{uploadId}/complete`. Remote form: `kind`, ' +
      '`sourceUrl` and optionally `filename`; the file is fetched and validated at once.',
  },
);
export type CreateUploadInput = Static<typeof CreateUploadBody>;

export const CreatedUpload = Type.Object(
  {
    uploadId: Type.String(),
    status: Type.Optional(StringEnum(['pending', 'ready'])),
    uploadUrl: Type.Optional(Type.String({ format: 'uri' })),
    expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);
export type CreatedUploadOut = Static<typeof CreatedUpload>;

export const Upload = Type.Object(
  {
    uploadId: Type.String(),
    kind: UploadKind,
    status: StringEnum(['pending', 'ready', 'failed'], {
      description:
        '`pending` until its bytes are validated. A signed upload not completed within an hour ' +
        'of its URL expiring, and a remote upload whose fetch did not end within 15 minutes, ' +
        'become `failed` with `error`',
    }),
    url: Type.Optional(Type.String({ format: 'uri', description: 'Signed, expires in an hour' })),
    thumbnailUrl: Type.Optional(
      Type.String({ format: 'uri', description: 'Signed; appears once the thumbnail is made' }),
    ),
    thumbnailStatus: Type.Optional(
      StringEnum(['pending', 'ready', 'failed'], {
        description:
          'Ready uploads only: `pending` until the thumbnail is made, `failed` (with ' +
          '`thumbnailError`) when it cannot be; posts made from it then have no thumbnail',
      }),
    ),
    thumbnailError: Type.Optional(
      Type.String({ description: 'Why no thumbnail could be made (thumbnailStatus failed)' }),
    ),
    error: Type.Optional(Type.String({ description: 'Why the upload failed' })),
    filename: Type.String(),
    contentType: Type.String(),
    sizeBytes: Type.Optional(Type.Integer()),
    sha256: Type.Optional(
      Type.String({
        description: 'Ready uploads: SHA-256 (hex) of the validated content, which never changes',
      }),
    ),
    width: Type.Optional(Type.Integer()),
    height: Type.Optional(Type.Integer()),
    durationSeconds: Type.Optional(Type.Number()),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Upload', additionalProperties: false },
);
export type UploadOut = Static<typeof Upload>;

export const UploadIdParams = Type.Object(
  { uploadId: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export const SignedQuery = Type.Object(
  {
    expires: Type.Integer({ minimum: 0, description: 'Expiry, Unix seconds' }),
    signature: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);

export const ReceivedBytes = Type.Object(
  {
    uploadId: Type.String(),
    status: StringEnum(['pending']),
    receivedBytes: Type.Integer(),
    sha256: Type.String({ description: 'SHA-256 (hex) of the bytes received' }),
  },
  { additionalProperties: false },
);
export type ReceivedBytesOut = Static<typeof ReceivedBytes>;
