// Keyboard shortcuts of the approvals inbox: j/k move between posts, a/r approve or reject
// the current post, x selects its accounts. Nothing happens while typing in a field.
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

// The browser's timezone, for pages of people who have not chosen one (dashboard/time.ts).
(() => {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (tz && !document.cookie.split('; ').includes(`slotline_tz=${encodeURIComponent(tz)}`)) {
    document.cookie = `slotline_tz=${encodeURIComponent(tz)}; path=/dashboard; max-age=31536000; samesite=lax`;
  }
})();
