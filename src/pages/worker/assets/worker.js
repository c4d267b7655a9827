// The workers' app in the browser: copy buttons, forms that never send twice, and a check
// of a screenshot's size before it goes over a slow connection. Every page works without
// this script: the copy buttons then stay hidden (the read-only fields can be selected and
// copied by hand), and the server answers a form sent twice as it answered it once.
(() => {
  // Copy buttons: `data-copy` names the field (its value) or element (its text) to copy.
  const status = () => document.querySelector('.copied');
  function say(text) {
    const s = status();
    if (s) s.textContent = text;
  }
  function nameOf(button) {
    return button.textContent.replace(/^Copy\s*/, '').trim() || 'Text';
  }
  document.querySelectorAll('button[data-copy]').forEach((button) => {
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    button.hidden = false;
    button.addEventListener('click', async () => {
      const text = 'value' in source ? source.value : source.textContent;
      const what = nameOf(button);
      try {
        await navigator.clipboard.writeText(text);
      } catch {
        // No clipboard (a plain-http page, an old browser): select it for the phone's Copy.
        if ('select' in source) {
          source.focus();
          source.select();
        }
        say('Selected: use your phone’s Copy.');
        return;
      }
      say(`${what.charAt(0).toUpperCase()}${what.slice(1)} copied.`);
    });
  });

  // A form is sent once: its buttons are disabled and say so until the answer comes. A
  // page shown again from the back/forward cache gets them back.
  const sending = new WeakSet();
  function buttonsOf(form) {
    return form.querySelectorAll('button[type="submit"], button:not([type])');
  }
  function release(form) {
    sending.delete(form);
    buttonsOf(form).forEach((b) => {
      b.disabled = false;
      if (b.dataset.label) b.textContent = b.dataset.label;
    });
  }

  // A screenshot over the limit is refused here, before a slow upload.
  function fileProblem(form) {
    const max = Number(form.dataset.proofMax || 0);
    const input = form.querySelector('input[type="file"]');
    const file = input && input.files && input.files[0];
    if (!max || !file || file.size <= max) return null;
    return {
      input,
      text: `The screenshot is larger than ${Math.round(max / 1048576)} MiB. Choose a smaller image, or send the form without one.`,
    };
  }
  function showFileProblem(problem) {
    const id = `${problem.input.id}-error`;
    let note = document.getElementById(id);
    if (!note) {
      note = document.createElement('p');
      note.id = id;
      note.className = 'field-error';
      problem.input.insertAdjacentElement('afterend', note);
      const described = problem.input.getAttribute('aria-describedby') || '';
      problem.input.setAttribute('aria-describedby', `${described} ${id}`.trim());
    }
    note.textContent = problem.text;
    problem.input.setAttribute('aria-invalid', 'true');
    problem.input.focus();
  }

  document.querySelectorAll('form').forEach((form) => {
    form.addEventListener('submit', (event) => {
      if (sending.has(form)) {
        event.preventDefault();
        return;
      }
      const problem = fileProblem(form);
      if (problem) {
        event.preventDefault();
        showFileProblem(problem);
        return;
      }
      sending.add(form);
      // Disabled after the browser took the form's data; a submit button carries no value.
      window.setTimeout(() => {
        buttonsOf(form).forEach((b) => {
          b.disabled = true;
          // Plain labels only: one with markup (a hidden name) keeps it as it is.
          if (b.childElementCount > 0) return;
          b.dataset.label = b.textContent;
          b.textContent = 'Sending…';
        });
      }, 0);
    });
  });
  window.addEventListener('pageshow', () => document.querySelectorAll('form').forEach(release));

  // The service worker (notifications and their taps), registered on every page of a
  // signed-in worker; it asks for nothing. Permission is asked only from the button below.
  const APP = '/dashboard/worker';
  const csrf = document.body.dataset.csrf || '';
  const canPush =
    'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
  const registration =
    csrf && 'serviceWorker' in navigator
      ? navigator.serviceWorker
          .register(`${APP}/sw.js`, { scope: `${APP}/` })
          .then(() => navigator.serviceWorker.ready)
      : null;
  if (registration) registration.catch(() => undefined);

  // "On this phone": the state of this phone's subscription, and the buttons that change it
  // (push-panel.js, shared with the dashboard).
  const panel = document.querySelector('[data-push]');
  if (panel && window.slotlinePushPanel) {
    const standalone = window.matchMedia('(display-mode: standalone)').matches;
    const ios = /iPhone|iPad|iPod/.test(navigator.userAgent);
    window.slotlinePushPanel(panel, {
      base: APP,
      csrf,
      registration: canPush ? registration : null,
      unsupported: ios && !standalone ? 'ios' : 'unsupported',
      failed: (turning, why) =>
        turning === 'on'
          ? `Notifications could not be turned on (${why}). Try again, or keep the app open: the task list updates by itself.`
          : `Notifications could not be turned off (${why}). Try again.`,
    });
  }

  // The tasks page keeps itself current: it asks for the list's version every 30 seconds
  // while in view, at once when it comes back into view or a push arrives, and swaps in the
  // fresh list when the version changed, saying what is new.
  const list = document.querySelector('[data-tasks][data-version]');
  if (list) {
    const news = document.querySelector('[data-tasks-news]');
    let version = list.dataset.version;
    let busy = false;
    const cards = (root) =>
      new Map(
        [...root.querySelectorAll('a.wcard-link[href*="/tasks/"]')].map((a) => [
          a.getAttribute('href'),
          a.querySelector('.who-acct') ? a.querySelector('.who-acct').textContent : '',
        ]),
      );
    const check = async () => {
      if (busy || document.visibilityState !== 'visible') return;
      busy = true;
      try {
        const answer = await fetch(`${APP}/tasks/version`, { credentials: 'same-origin' });
        if (!answer.ok) return;
        const now = await answer.json();
        if (now.version === version) return;
        const page = await fetch(`${APP}/tasks`, { credentials: 'same-origin' });
        if (!page.ok || !page.url.endsWith(`${APP}/tasks`)) return;
        const fresh = new DOMParser()
          .parseFromString(await page.text(), 'text/html')
          .querySelector('[data-tasks][data-version]');
        if (!fresh) return;
        const before = cards(list);
        const added = [...cards(fresh)].filter(([href]) => !before.has(href));
        list.replaceChildren(...fresh.childNodes);
        version = fresh.dataset.version;
        list.dataset.version = version;
        if (news) {
          news.textContent = added.length
            ? `New ${added.length === 1 ? 'task' : 'tasks'} for ${[...new Set(added.map(([, who]) => who))].join(', ')}.`
            : 'Your task list changed.';
          news.hidden = false;
        }
      } catch {
        // Offline for a moment: the next check tries again.
      } finally {
        busy = false;
      }
    };
    window.setInterval(check, 30_000);
    document.addEventListener('visibilitychange', check);
    if ('serviceWorker' in navigator) {
      navigator.serviceWorker.addEventListener('message', (event) => {
        if (event.data && event.data.type === 'slotline-push') check();
      });
    }
  }
  // A tap on a notification when the browser cannot move this window itself.
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.addEventListener('message', (event) => {
      const url = event.data && event.data.type === 'slotline-open' ? event.data.url : null;
      if (url && new URL(url, window.location.href).pathname.startsWith(`${APP}/`)) {
        window.location.assign(url);
      }
    });
  }
})();
