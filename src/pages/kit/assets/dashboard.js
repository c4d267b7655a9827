// Keyboard shortcuts of the approvals inbox: j/k move between posts, a approves the current
// post, r opens the confirmation of its rejection (which asks for a reason: no key rejects
// by itself), x selects its accounts. Nothing happens while typing in a field.
(() => {
  let current = -1;
  const cards = () => Array.from(document.querySelectorAll('.card'));
  function focus(i) {
    const list = cards();
    if (list.length === 0) return;
    current = Math.max(0, Math.min(list.length - 1, i));
    list.forEach((c, n) => c.classList.toggle('current', n === current));
    list[current].focus();
  }
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t instanceof HTMLElement && t.closest('input, textarea, select, [contenteditable]')) return;
    const card = cards()[current];
    if (e.key === 'j') focus(current + 1);
    else if (e.key === 'k') focus(current - 1);
    else if ((e.key === 'a' || e.key === 'r') && card)
      card.querySelector(`[data-key="${e.key}"]`)?.click();
    else if (e.key === 'x' && card)
      card.querySelectorAll('input[type=checkbox]').forEach((b) => (b.checked = !b.checked));
    else return;
    e.preventDefault();
  });
  document.addEventListener('htmx:afterSwap', () => (current = -1));
})();

// Copy buttons (the API key secret): shown only with JavaScript; the clipboard when the
// browser allows it, otherwise the text is selected for the person to copy.
(() => {
  function enable(root) {
    root.querySelectorAll('button[data-copy]').forEach((b) => (b.hidden = false));
  }
  document.addEventListener('DOMContentLoaded', () => enable(document));
  document.addEventListener('htmx:afterSwap', () => enable(document));
  document.addEventListener('click', async (e) => {
    const button = e.target instanceof HTMLElement ? e.target.closest('button[data-copy]') : null;
    if (!button) return;
    const field = document.getElementById(button.dataset.copy);
    if (!(field instanceof HTMLElement) || typeof field.select !== 'function') return;
    const status = document.querySelector('.copied');
    field.focus();
    field.select();
    try {
      await globalThis.navigator.clipboard.writeText(field.value);
      if (status) status.textContent = 'Copied to the clipboard.';
    } catch {
      if (status) status.textContent = 'Selected: press Ctrl+C (or ⌘C) to copy.';
    }
  });
})();

// The schedule editor's live check, the SPEC 4.5 rule 1 the schedules service applies:
// 1-4 windows, HH:mm, ascending, 08:00-17:00, 3 hours apart. It only informs; the form
// still submits and the server's answer is the one that counts.
(() => {
  const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
  function problem(values) {
    if (values.length < 1) return 'Enter at least one window, or clear the schedule.';
    if (values.length > 4) return 'At most 4 windows.';
    let previous = null;
    for (let i = 0; i < values.length; i++) {
      const m = HHMM.exec(values[i]);
      if (!m) return `Window ${i + 1} must be a time in HH:mm format.`;
      const minutes = Number(m[1]) * 60 + Number(m[2]);
      if (minutes < 480 || minutes > 1020)
        return `Window ${i + 1} must be between 08:00 and 17:00 inclusive.`;
      if (previous !== null && minutes <= previous)
        return `Window ${i + 1} must come after window ${i}: windows are sorted ascending.`;
      if (previous !== null && minutes - previous < 180)
        return `Window ${i + 1} must be at least 3 hours after window ${i}.`;
      previous = minutes;
    }
    return null;
  }
  function check(form) {
    const inputs = Array.from(form.querySelectorAll('input[name="window"]'));
    const filled = inputs.filter((input) => input.value.trim() !== '');
    const message = problem(filled.map((input) => input.value.trim()));
    const out = form.querySelector('#schedule-live');
    if (out) out.textContent = message ?? 'These windows follow the rules.';
    const bad = message ? /Window (\d+)/.exec(message) : null;
    inputs.forEach((input) => input.removeAttribute('aria-invalid'));
    if (bad) filled[Number(bad[1]) - 1]?.setAttribute('aria-invalid', 'true');
  }
  document.addEventListener('input', (e) => {
    const form = e.target instanceof HTMLElement ? e.target.closest('form[data-schedule]') : null;
    if (form) check(form);
  });
})();

// htmx leaves 4xx and 5xx answers unswapped by default, so a boosted form refused by the
// server (a rule broken, a missing role) would show nothing. Every dashboard answer is a
// whole page that says what went wrong, so it replaces the page like any other.
document.addEventListener('htmx:beforeSwap', (e) => {
  const xhr = e.detail.xhr;
  if (xhr.status >= 400 && /text\/html/.test(xhr.getResponseHeader('content-type') ?? '')) {
    e.detail.shouldSwap = true;
    e.detail.isError = false;
  }
});

// Workspace uploads: the dashboard has no multipart parser, so each chosen file goes as the
// raw body of a PUT with its own content type and the CSRF header; the server checks the
// bytes. The form stays disabled without JavaScript (its <noscript> says why).
(() => {
  function enable(root) {
    root.querySelectorAll('form[data-upload] fieldset[disabled]').forEach((f) => {
      f.disabled = false;
    });
  }
  function messageOf(html, status) {
    const alert = new DOMParser().parseFromString(html, 'text/html').querySelector('[role=alert]');
    return alert?.textContent?.trim() || `The upload failed (${status}).`;
  }
  document.addEventListener('DOMContentLoaded', () => enable(document));
  document.addEventListener('htmx:afterSwap', () => enable(document));
  document.addEventListener('submit', async (e) => {
    const form = e.target;
    if (!(form instanceof HTMLFormElement) || !form.matches('[data-upload]')) return;
    e.preventDefault();
    const input = form.querySelector('input[type=file]');
    const error = form.querySelector('[data-upload-error]');
    const status = form.querySelector('[data-upload-status]');
    const fieldset = form.querySelector('fieldset');
    const csrf = form.querySelector('input[name=_csrf]').value;
    const files = Array.from(input.files ?? []);
    if (files.length === 0) return;
    error.hidden = true;
    fieldset.disabled = true;
    let next = null;
    try {
      for (const [i, file] of files.entries()) {
        status.textContent = `Uploading ${file.name} (${i + 1} of ${files.length})…`;
        const res = await fetch(form.action, {
          method: 'PUT',
          headers: {
            'content-type': file.type || 'application/octet-stream',
            'x-csrf-token': csrf,
            'x-file-name': encodeURIComponent(file.name),
          },
          body: file,
          credentials: 'same-origin',
        });
        if (!res.ok) throw new Error(`${file.name}: ${messageOf(await res.text(), res.status)}`);
        next = res.headers.get('location');
      }
      status.textContent = 'Done.';
      window.location.assign(next ?? window.location.href);
    } catch (err) {
      status.textContent = '';
      error.textContent = err instanceof Error ? err.message : String(err);
      error.hidden = false;
      fieldset.disabled = false;
      input.focus();
    }
  });
})();

// The browser's timezone, for pages of people who have not chosen one (pages/company/time.ts).
(() => {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (tz && !document.cookie.split('; ').includes(`slotline_tz=${encodeURIComponent(tz)}`)) {
    document.cookie = `slotline_tz=${encodeURIComponent(tz)}; path=/dashboard; max-age=31536000; samesite=lax`;
  }
})();

// The header's menu on narrow screens: the button shows and hides the navigation and the
// account (dashboard.css hides them while aria-expanded is false). The account drop-down
// at desktop width is a <details>. A click elsewhere or Escape closes either, Escape giving
// the focus back to its button. A boosted navigation swaps in a closed header.
(() => {
  const openToggle = () => document.querySelector('.menu-toggle[aria-expanded="true"]');
  const openAccount = () => document.querySelector('.masthead details.account[open]');
  document.addEventListener('click', (e) => {
    // The target may be the button's drawing (an SVG element, not an HTMLElement).
    const target = e.target instanceof window.Element ? e.target : null;
    const button = target?.closest('.menu-toggle');
    if (button) {
      button.setAttribute('aria-expanded', String(button.getAttribute('aria-expanded') !== 'true'));
      return;
    }
    const toggle = openToggle();
    if (toggle && !target?.closest('.site-menu')) toggle.setAttribute('aria-expanded', 'false');
    const account = openAccount();
    if (account && !target?.closest('details.account')) account.open = false;
  });
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    const account = openAccount();
    if (account && window.getComputedStyle(account.querySelector('summary')).display !== 'none') {
      account.open = false;
      account.querySelector('summary').focus();
      return;
    }
    const toggle = openToggle();
    if (!toggle) return;
    toggle.setAttribute('aria-expanded', 'false');
    toggle.focus();
  });
  // The error page's "Go back", shown where there is a page to go back to.
  function showBack() {
    if (window.history.length < 2) return;
    document.querySelectorAll('button[data-back]').forEach((b) => (b.hidden = false));
  }
  document.addEventListener('DOMContentLoaded', showBack);
  document.addEventListener('htmx:afterSwap', showBack);
  document.addEventListener('click', (e) => {
    if (e.target instanceof window.Element && e.target.closest('button[data-back]')) {
      window.history.back();
    }
  });
})();

// Webhook endpoint forms: "All events" ticks or clears every event type at once, and shows
// whether all, some (mixed) or none of them are ticked. Without JavaScript the server reads
// "All events" the same way.
(() => {
  function sync(choice) {
    const all = choice.querySelector('[data-all-events]');
    const boxes = Array.from(choice.querySelectorAll('[data-event]'));
    if (!all || boxes.length === 0) return;
    const ticked = boxes.filter((b) => b.checked).length;
    all.checked = ticked === boxes.length;
    all.indeterminate = ticked > 0 && ticked < boxes.length;
  }
  const syncAll = () => document.querySelectorAll('[data-event-choice]').forEach(sync);
  document.addEventListener('DOMContentLoaded', syncAll);
  document.addEventListener('htmx:afterSwap', syncAll);
  document.addEventListener('change', (e) => {
    const box =
      e.target instanceof HTMLElement && e.target.matches('input[type=checkbox]') ? e.target : null;
    const choice = box?.closest('[data-event-choice]');
    if (!box || !choice) return;
    if (box.matches('[data-all-events]')) {
      choice.querySelectorAll('[data-event]').forEach((b) => (b.checked = box.checked));
    }
    sync(choice);
  });
})();

// Live character counts: a <textarea data-count-max="N" id="x"> and its <p data-count-for="x">
// say "123 of 2,200 characters" as people type, counted as the service counts (characters,
// line ends as one), and how many too many. The server checks again; this only informs.
(() => {
  const format = (n) => n.toLocaleString('en-US');
  function update(field) {
    const out = document.querySelector(`[data-count-for="${field.id}"]`);
    const max = Number(field.dataset.countMax);
    if (!out || !Number.isFinite(max)) return;
    const count = Array.from(field.value.replace(/\r\n?/g, '\n')).length;
    out.textContent =
      count > max
        ? `${format(count)} of ${format(max)} characters: ${format(count - max)} too many`
        : `${format(count)} of ${format(max)} characters`;
    out.classList.toggle('over', count > max);
  }
  document.addEventListener('input', (e) => {
    const field = e.target instanceof HTMLElement ? e.target : null;
    if (field?.tagName === 'TEXTAREA' && field.dataset.countMax) update(field);
  });
})();

// The posts list's selection: "Select all on this page" (shown only with JavaScript) ticks or
// clears every post of the page, and the bar says how many are selected.
(() => {
  const boxes = (form) =>
    Array.from(document.querySelectorAll(`input[form="${form}"][name="post"]`));
  function sync(all) {
    const list = boxes(all.dataset.selectPosts);
    const ticked = list.filter((b) => b.checked).length;
    all.checked = list.length > 0 && ticked === list.length;
    all.indeterminate = ticked > 0 && ticked < list.length;
    const count = document.querySelector(`[data-selected-count="${all.dataset.selectPosts}"]`);
    if (count) count.textContent = ticked ? `${ticked} selected` : '';
  }
  function enable() {
    document.querySelectorAll('[data-select-posts]').forEach((all) => {
      const label = all.closest('label');
      if (label) label.hidden = false;
      sync(all);
    });
  }
  document.addEventListener('DOMContentLoaded', enable);
  document.addEventListener('htmx:afterSwap', enable);
  document.addEventListener('change', (e) => {
    const box = e.target instanceof HTMLElement && e.target.tagName === 'INPUT' ? e.target : null;
    if (!box) return;
    if (box.dataset.selectPosts) {
      boxes(box.dataset.selectPosts).forEach((b) => (b.checked = box.checked));
      sync(box);
    } else if (box.name === 'post' && box.form) {
      const all = document.querySelector(`[data-select-posts="${box.form.id}"]`);
      if (all) sync(all);
    }
  });
})();

// Forms that take a while (an import's check fetches every media address): the status line
// says what is happening and the button is not pressed twice. Disabled after the submit
// event, so the form is still sent; enabled again when the page comes back from history.
(() => {
  document.addEventListener('submit', (e) => {
    const form = e.target;
    if (!(form instanceof HTMLFormElement) || !form.matches('form[data-busy]')) return;
    if (e.defaultPrevented) return;
    const status = form.querySelector('[data-busy-status]');
    if (status) status.textContent = form.dataset.busy;
    const buttons = form.querySelectorAll('button[type=submit]');
    window.setTimeout(() => buttons.forEach((b) => (b.disabled = true)), 0);
  });
  window.addEventListener('pageshow', (e) => {
    if (!e.persisted) return;
    document.querySelectorAll('form[data-busy] button[type=submit]').forEach((b) => {
      b.disabled = false;
    });
  });
})();

// Push on this device (the dashboard's Your notifications): the service worker is
// registered with the dashboard's scope only on that page, and permission is asked only
// from its button (push-panel.js). The subscription is sent with the form's CSRF token.
(() => {
  const panel = document.querySelector('[data-dashboard-push]');
  if (!panel || !window.slotlinePushPanel) return;
  const APP = '/dashboard';
  const canPush =
    'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
  const registration = canPush
    ? navigator.serviceWorker
        .register(`${APP}/sw.js`, { scope: `${APP}/` })
        .then((reg) => (reg.active ? reg : navigator.serviceWorker.ready.then(() => reg)))
    : null;
  if (registration) registration.catch(() => undefined);
  window.slotlinePushPanel(panel, {
    base: APP,
    csrf: (document.querySelector('input[name=_csrf]') || {}).value || '',
    registration,
    unsupported: 'unsupported',
    failed: (turning, why) =>
      turning === 'on'
        ? `Push could not be turned on (${why}). Try again; mail still comes.`
        : `Push could not be turned off (${why}). Try again.`,
  });
})();
