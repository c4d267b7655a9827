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

// A form answered with its errors (400, 409) or a refusal (403, 404) is a whole page like
// any other: htmx leaves 4xx unswapped by default, which would show nothing at all.
document.addEventListener('htmx:beforeSwap', (e) => {
  const status = e.detail.xhr.status;
  if (e.detail.boosted && status >= 400 && status < 500) {
    e.detail.shouldSwap = true;
    e.detail.isError = false;
  }
});
