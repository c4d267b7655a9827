// Copy buttons of the workers' page. Without JavaScript they stay hidden and the read-only
// text areas can be selected and copied by hand.
(() => {
  const status = () => document.querySelector('.copied');
  function copied(text) {
    const s = status();
    if (s) s.textContent = text;
  }
  document.querySelectorAll('button[data-copy]').forEach((button) => {
    const area = document.getElementById(button.dataset.copy);
    if (!area) return;
    button.hidden = false;
    button.addEventListener('click', async () => {
      const label = button.textContent;
      try {
        await navigator.clipboard.writeText(area.value);
      } catch {
        // No clipboard API (an http page, an old browser): select the text for a manual copy.
        area.focus();
        area.select();
        copied('Selected: use your phone’s Copy.');
        return;
      }
      copied(`${label.replace('Copy ', '')} copied.`.replace(/^./, (c) => c.toUpperCase()));
    });
  });
})();
