// Push on this device, one panel for the workers' app and the dashboard: the state of this
// device's subscription ([data-push-state] paragraphs), the button that asks for permission
// (only when pressed, never on load) and subscribes, and the one that unsubscribes. Each
// app gives its base address (where its push-subscription route is), its CSRF token, its
// service worker's registration (or null where push cannot work), the state to show then,
// and the words of a failure. A subscription already there is sent again on each visit, so
// the server keeps the freshest keys of the device.
window.slotlinePushPanel = (panel, app) => {
  const on = panel.querySelector('[data-push-on]');
  const off = panel.querySelector('[data-push-off]');
  if (!on || !off) return;
  const keyBytes = (base64url) =>
    Uint8Array.from(atob(base64url.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  const send = (method, body) =>
    fetch(`${app.base}/push-subscription`, {
      method,
      headers: { 'content-type': 'application/json', 'x-csrf-token': app.csrf },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  const show = (state, text) => {
    panel.querySelectorAll('[data-push-state]').forEach((p) => {
      p.hidden = p.dataset.pushState !== state;
      if (state === 'error' && p.dataset.pushState === 'error') p.textContent = text || '';
    });
    on.hidden = !(state === 'off' || state === 'error');
    off.hidden = state !== 'on';
    panel.dataset.pushNow = state;
  };
  const why = (err) => (err && err.message ? err.message : String(err));
  const refresh = async () => {
    if (!app.registration) return show(app.unsupported);
    if (Notification.permission === 'denied') return show('blocked');
    const reg = await app.registration;
    const sub = await reg.pushManager.getSubscription();
    if (sub && Notification.permission === 'granted') {
      await send('PUT', sub.toJSON()).catch(() => undefined);
      return show('on');
    }
    return show('off');
  };
  on.addEventListener('click', async () => {
    on.disabled = true;
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') return show(permission === 'denied' ? 'blocked' : 'off');
      const reg = await app.registration;
      const sub =
        (await reg.pushManager.getSubscription()) ||
        (await reg.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(panel.dataset.key),
        }));
      const answer = await send('PUT', sub.toJSON());
      if (!answer.ok) throw new Error(`the server answered ${answer.status}`);
      window.location.reload();
    } catch (err) {
      show('error', app.failed('on', why(err)));
    } finally {
      on.disabled = false;
    }
  });
  off.addEventListener('click', async () => {
    off.disabled = true;
    try {
      const reg = await app.registration;
      const sub = await reg.pushManager.getSubscription();
      if (sub) {
        await send('DELETE', { endpoint: sub.endpoint });
        await sub.unsubscribe();
      }
      window.location.reload();
    } catch (err) {
      show('error', app.failed('off', why(err)));
    } finally {
      off.disabled = false;
    }
  });
  refresh().catch((err) => show('error', why(err)));
};
