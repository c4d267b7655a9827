// The calendar's script (views/calendar.eta). Without it every planned post still has its
// Move link to the move page, the account filter its Show button and a busy day its link to
// the day. With it:
// - a planned post is dragged onto another window: while it is dragged, each day shows that
//   account's windows (free ones to drop on, taken ones and full days said so), and a drop
//   sends the move page's form asking for JSON; the server plans and refuses, this script
//   only shows its answer, then reloads the calendar with the move done;
// - choosing an account applies at once;
// - "+N more" opens the busy day in place.
(() => {
  // A boosted visit runs the script again: its listeners are the document's, added once.
  if (document.documentElement.dataset.calendarScript) return;
  document.documentElement.dataset.calendarScript = 'on';
  const KINDS = {
    free: 'free',
    current: 'chosen',
    taken: 'taken',
    day_at_cap: 'day full',
  };
  const asked = new Map();
  let drag = null;

  const csrf = () => {
    try {
      return JSON.parse(document.body.getAttribute('hx-headers') ?? '{}')['x-csrf-token'] ?? '';
    } catch {
      return '';
    }
  };

  function say(text, bad) {
    const box = document.getElementById('cal-move-status');
    if (!box) return;
    box.hidden = false;
    box.textContent = text;
    box.classList.toggle('alert', Boolean(bad));
    box.classList.toggle('notice', !bad);
  }

  /** The item's windows by the reader's day, asked once per item. */
  function windowsOf(url) {
    if (!asked.has(url)) {
      asked.set(
        url,
        fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' })
          .then((res) => (res.ok ? res.json() : null))
          .catch(() => null),
      );
    }
    return asked.get(url);
  }

  function clear() {
    document.querySelectorAll('.cal-drop').forEach((el) => el.remove());
    document
      .querySelectorAll('.cal-dragging, .cal-over, .cal-target')
      .forEach((el) => el.classList.remove('cal-dragging', 'cal-over', 'cal-target'));
    document.body.classList.remove('cal-is-dragging');
  }

  function showWindows(data) {
    if (!drag || !data) return;
    drag.data = data;
    const byDate = new Map(data.days.map((d) => [d.date, d]));
    for (const cell of document.querySelectorAll('[data-date]')) {
      const day = byDate.get(cell.dataset.date);
      if (!day || day.windows.length === 0) continue;
      cell.classList.add('cal-target');
      const list = document.createElement('ul');
      list.className = 'cal-drop';
      list.setAttribute('aria-hidden', 'true');
      for (const w of day.windows) {
        const slot = document.createElement('li');
        slot.className = `cal-slot cal-slot-${w.state}`;
        slot.dataset.at = w.at;
        slot.textContent = `${w.time} ${KINDS[w.state] ?? w.state}`;
        list.append(slot);
      }
      cell.append(list);
    }
  }

  /** The window a drop on a day means: the slot dropped on, else the day's first free one. */
  function windowAt(target) {
    const slot = target.closest('.cal-slot');
    if (slot) return slot.dataset.at;
    const cell = target.closest('[data-date]');
    const day = drag?.data?.days.find((d) => d.date === cell?.dataset.date);
    if (!day || day.windows.length === 0) return null;
    return (day.windows.find((w) => w.state === 'free') ?? day.windows[0]).at;
  }

  async function move(url, at) {
    say('Moving…', false);
    const body = new window.URLSearchParams({ at, _csrf: csrf() });
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { accept: 'application/json', 'x-csrf-token': csrf() },
        body,
        credentials: 'same-origin',
      });
      const answer = await res.json().catch(() => ({}));
      if (res.ok && answer.ok) {
        say(answer.message, false);
        window.location.reload();
        return;
      }
      say(answer.message ?? 'The post could not be moved. Try its Move link.', true);
    } catch {
      say('The post could not be moved: the connection failed. Try again.', true);
    }
  }

  document.addEventListener('pointerdown', (e) => {
    const item = e.target instanceof window.Element ? e.target.closest('[data-move]') : null;
    if (item) windowsOf(item.dataset.move);
  });

  document.addEventListener('dragstart', (e) => {
    const item = e.target instanceof window.Element ? e.target.closest('[data-move]') : null;
    if (!item) return;
    clear();
    drag = { url: item.dataset.move, item, data: null };
    e.dataTransfer.effectAllowed = 'move';
    e.dataTransfer.setData('text/plain', item.dataset.move);
    item.classList.add('cal-dragging');
    document.body.classList.add('cal-is-dragging');
    windowsOf(item.dataset.move).then(showWindows);
  });

  document.addEventListener('dragover', (e) => {
    if (!drag || !(e.target instanceof window.Element)) return;
    const cell = e.target.closest('[data-date]');
    if (!cell) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
    document.querySelectorAll('.cal-over').forEach((el) => el.classList.remove('cal-over'));
    (e.target.closest('.cal-slot') ?? cell).classList.add('cal-over');
  });

  document.addEventListener('drop', (e) => {
    if (!drag || !(e.target instanceof window.Element)) return;
    const cell = e.target.closest('[data-date]');
    if (!cell) return;
    e.preventDefault();
    const { url, data } = drag;
    const at = windowAt(e.target);
    drag = null;
    clear();
    if (!data) {
      say('The windows are still loading. Try again, or use the post’s Move link.', true);
    } else if (!data.open) {
      say('This post has already been released to its worker: it can no longer move.', true);
    } else if (at === null) {
      say(
        `${data.account} has no window that can take it that day (only the coming two weeks can be chosen). Choose a day with windows.`,
        true,
      );
    } else {
      move(url, at);
    }
  });

  document.addEventListener('dragend', () => {
    drag = null;
    clear();
  });

  // Busy days open in place: the day's items from the day view replace the first few.
  document.addEventListener('click', async (e) => {
    const more = e.target instanceof window.Element ? e.target.closest('a.cal-more') : null;
    if (!more || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const cell = more.closest('.cal-day');
    if (!cell) return;
    e.preventDefault();
    try {
      const res = await fetch(more.href, { credentials: 'same-origin' });
      if (!res.ok) throw new Error(String(res.status));
      const doc = new window.DOMParser().parseFromString(await res.text(), 'text/html');
      const items = doc.querySelector('.cal-dayview .cal-items');
      if (!items) throw new Error('no items');
      cell.querySelector('.cal-items')?.remove();
      cell.querySelector('.cal-counts')?.remove();
      more.before(document.importNode(items, true));
      if (doc.querySelector('.cal-dayview .pager')) {
        more.textContent = 'Open the day for the rest';
      } else {
        more.remove();
      }
      cell.classList.add('cal-open');
      cell.querySelector('.cal-items a')?.focus();
    } catch {
      window.location.assign(more.href);
    }
  });

  function init() {
    document.querySelectorAll('form[data-auto-apply]').forEach((form) => {
      const select = form.querySelector('select');
      if (!select || form.dataset.ready) return;
      form.dataset.ready = 'true';
      form.querySelector('[data-apply]')?.setAttribute('hidden', '');
      select.addEventListener('change', () => form.requestSubmit());
    });
    if (window.matchMedia('(pointer: fine)').matches) {
      document.querySelectorAll('[data-drag-hint]').forEach((el) => (el.hidden = false));
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
  document.addEventListener('htmx:afterSwap', init);
})();
