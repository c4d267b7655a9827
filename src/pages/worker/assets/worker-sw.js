// The apps' one service worker: served at /dashboard/worker/sw.js for the workers' app and
// at /dashboard/sw.js for the dashboard, each registered with its own scope, which is how
// it knows its app. The scopes nest (/dashboard/worker/ is inside /dashboard/): each
// registration has its own push subscription, and the dashboard's opens no workers' page
// nor takes over a workers' window. A push (a released task, a reminder, an approval due)
// shows a notification and tells the app's open pages, which may refresh; tapping the
// notification opens the page the push names, in an open window of the app when there is
// one, and only a same-origin page of the app: anything else opens the app's home.
const WORKER_APP = '/dashboard/worker/';
const APP = new URL(self.registration.scope).pathname;
const HOME = APP === WORKER_APP ? `${APP}tasks` : APP;
const ICON = '/dashboard/assets/worker-icon-192.png';

/** Whether a path belongs to this registration's app (the dashboard's leaves the workers'). */
function inApp(path) {
  return path.startsWith(APP) && (APP === WORKER_APP || !path.startsWith(WORKER_APP));
}

/** The page a push may open: a path of the app, nothing else. */
function pageOf(url) {
  if (typeof url !== 'string') return HOME;
  try {
    const target = new URL(url, self.location.origin);
    if (target.origin !== self.location.origin || !inApp(target.pathname)) return HOME;
    return target.pathname + target.search;
  } catch {
    return HOME;
  }
}

function noticeOf(data) {
  if (!data) return {};
  try {
    const parsed = data.json();
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return { body: data.text() };
  }
}

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  const notice = noticeOf(event.data);
  const url = pageOf(notice.url);
  const title = typeof notice.title === 'string' && notice.title ? notice.title : 'Slotline';
  const options = {
    body: typeof notice.body === 'string' ? notice.body : '',
    icon: ICON,
    badge: ICON,
    data: { url },
  };
  if (typeof notice.tag === 'string' && notice.tag) {
    options.tag = notice.tag;
    options.renotify = true;
  }
  event.waitUntil(
    (async () => {
      await self.registration.showNotification(title, options);
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const client of windows) client.postMessage({ type: 'slotline-push', url });
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(
    pageOf(event.notification.data && event.notification.data.url),
    self.location.origin,
  ).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((c) => inApp(new URL(c.url).pathname));
      if (!open) {
        await self.clients.openWindow(url);
        return;
      }
      try {
        await open.focus();
      } catch {
        // Focus needs the tap's activation; the window is navigated all the same.
      }
      if (open.url !== url) {
        if (open.navigate) await open.navigate(url);
        else open.postMessage({ type: 'slotline-open', url });
      }
    })(),
  );
});
