// The window choice of the composer (views/window-choice.eta, window-choice.ts). Without this
// script the form still sends the choice and the page shows each account's planned window
// after a refusal or once the post is made; with it, the planned windows follow the chosen
// accounts and the choice as they change, and only the day or time field of the chosen kind
// shows. The server plans; this script only asks it again.
(() => {
  const DELAY = 250;
  const WATCHED = /^(account|when|whenDay|notBefore|priority|skipApproval|at\..+)$/;

  function init(box) {
    if (box.dataset.ready) return;
    box.dataset.ready = 'true';
    const form = box.closest('form');
    const rows = box.querySelector('#when-rows');
    const day = box.querySelector('#when-day');
    const notBefore = box.querySelector('#not-before');
    let timer = 0;
    let asked = 0;

    function showKind() {
      const kind = form.querySelector('input[name=when]:checked')?.value ?? 'next';
      day.hidden = kind !== 'day';
      box.querySelector('label[for=when-day]').hidden = kind !== 'day';
      notBefore.hidden = kind !== 'after';
      box.querySelector('label[for=not-before]').hidden = kind !== 'after';
    }

    async function refresh() {
      const params = new window.URLSearchParams();
      for (const el of form.elements) {
        if (!el.name || !WATCHED.test(el.name) || el.disabled) continue;
        if ((el.type === 'checkbox' || el.type === 'radio') && !el.checked) continue;
        if (el.name.startsWith('at.') && el.value === '') continue;
        params.append(el.name, el.value);
      }
      const mine = ++asked;
      try {
        const res = await fetch(`${box.dataset.rowsUrl}?${params}`, {
          headers: { accept: 'text/html' },
          credentials: 'same-origin',
        });
        if (!res.ok || mine !== asked) return;
        const html = await res.text();
        if (mine !== asked) return;
        const focused = document.activeElement?.id;
        rows.innerHTML = html;
        if (focused) document.getElementById(focused)?.focus();
      } catch {
        // Offline for a moment: the windows shown stay, and the server checks on create.
      }
    }

    form.addEventListener('change', (event) => {
      const name = event.target?.name ?? '';
      if (!WATCHED.test(name)) return;
      if (name === 'when') showKind();
      window.clearTimeout(timer);
      timer = window.setTimeout(refresh, DELAY);
    });
    showKind();
  }

  const start = () => document.querySelectorAll('[data-when]').forEach(init);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
