// "Select all" boxes of the console's account lists: shown only with JavaScript (without
// it, each list has a link that ticks every box from the server). A box ticks or clears
// every account box of its form, and shows whether all, some or none are ticked.
/* global document, HTMLInputElement */
(() => {
  const boxesOf = (form) => Array.from(form.querySelectorAll('input[type=checkbox][name=account]'));
  function sync(all) {
    const form = document.getElementById(all.dataset.selectAll);
    if (!form) return;
    const boxes = boxesOf(form);
    const ticked = boxes.filter((b) => b.checked).length;
    all.checked = boxes.length > 0 && ticked === boxes.length;
    all.indeterminate = ticked > 0 && ticked < boxes.length;
  }
  document.addEventListener('DOMContentLoaded', () => {
    document.querySelectorAll('[data-select-all-box]').forEach((box) => (box.hidden = false));
    document.querySelectorAll('input[data-select-all]').forEach(sync);
  });
  document.addEventListener('change', (e) => {
    const input = e.target;
    if (!(input instanceof HTMLInputElement)) return;
    if (input.dataset.selectAll) {
      const form = document.getElementById(input.dataset.selectAll);
      if (form) boxesOf(form).forEach((b) => (b.checked = input.checked));
      input.indeterminate = false;
      return;
    }
    if (input.name !== 'account' || !input.form) return;
    input.form.querySelectorAll('input[data-select-all]').forEach(sync);
  });
})();
