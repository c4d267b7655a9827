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
