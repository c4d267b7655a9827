// The shapes of push subscriptions on the wire, shared by the worker API and the apps'
// pages: the standard subscription JSON of the Push API, the body that removes one, and a
// device as the API answers it.
import { Type } from 'typebox';
import { DateTime, Nullable } from '../../schemas/common.ts';
import { MAX_ENDPOINT } from './push-subscriptions.service.ts';

const Endpoint = Type.String({
  minLength: 1,
  maxLength: MAX_ENDPOINT,
  description: 'The push service URL of the subscription (`PushSubscription.endpoint`)',
});

export const SubscriptionBody = Type.Object(
  {
    endpoint: Endpoint,
    keys: Type.Object(
      {
        p256dh: Type.String({
          maxLength: 200,
          description: 'The device’s P-256 public key, base64url (65 bytes)',
        }),
        auth: Type.String({
          maxLength: 100,
          description: 'The device’s authentication secret, base64url (16 bytes)',
        }),
      },
      { description: 'The keys pushes are encrypted with (RFC 8291)', additionalProperties: false },
    ),
    expirationTime: Type.Optional(
      Nullable(
        Type.Number({
          description:
            'When the push service ends the subscription (ms since the epoch), if it says',
        }),
      ),
    ),
  },
  {
    description: 'What `PushSubscription.toJSON()` gives in the browser',
    additionalProperties: false,
  },
);

export const RemoveBody = Type.Object(
  {
    endpoint: Endpoint,
    keys: Type.Optional(
      Type.Object(
        { p256dh: Type.String({ maxLength: 200 }), auth: Type.String({ maxLength: 100 }) },
        { additionalProperties: false },
      ),
    ),
    expirationTime: Type.Optional(Nullable(Type.Number())),
  },
  {
    description: 'The subscription to remove: its JSON, or only its `endpoint`',
    additionalProperties: false,
  },
);

export const PushDeviceOut = Type.Object(
  {
    endpoint: Endpoint,
    expirationTime: Nullable(Type.Number()),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { additionalProperties: false },
);
