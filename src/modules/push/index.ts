// The push module's face: devices that receive Web Push, pushes written as outbox rows, and
// the sender the push loop uses.
export { loadVapidKeys } from './vapid.service.ts';
export {
  MAX_ENDPOINT,
  checkSubscription,
  devicesOf,
  removeSubscription,
  saveSubscription,
} from './push-subscriptions.service.ts';
export type { PushDevice, PushOwner, SubscriptionJson } from './push-subscriptions.service.ts';
export { PushDeviceOut, RemoveBody, SubscriptionBody } from './push.schemas.ts';
export { queuePush, queuePushes } from './push-notify.service.ts';
export type { PushNotice, PushRequest } from './push-notify.service.ts';
export { pushSender } from './push-sender.service.ts';
export type { PushPolicy } from './push-sender.service.ts';
