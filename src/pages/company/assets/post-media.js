// The post page's carousel gallery (views/post.eta). Without this script the slides still
// scroll sideways and snap one at a time; with it, the previous and next buttons and the
// "1 / 3" counter show, the counter follows the scrolling, and the arrow keys on the focused
// slides move one slide at a time.
(() => {
  const still = window.matchMedia('(prefers-reduced-motion: reduce)');

  function init(gallery) {
    if (gallery.dataset.ready) return;
    gallery.dataset.ready = 'true';
    const track = gallery.querySelector('.gallery-track');
    const slides = [...gallery.querySelectorAll('.gallery-slide')];
    const prev = gallery.querySelector('[data-gallery-prev]');
    const next = gallery.querySelector('[data-gallery-next]');
    const count = gallery.querySelector('[data-gallery-count]');
    if (!track || slides.length < 2 || !prev || !next || !count) return;
    let current = 0;
    // The slide a button or key scrolls to: the scrolling on the way there is not the
    // person's, so the counter waits for it (or a second, should the scroll be cut short).
    let aimed = null;
    let aimTimer = 0;

    function show(index) {
      current = index;
      count.textContent = `${index + 1} / ${slides.length}`;
      // aria-disabled rather than disabled: a button stays focused at either end.
      prev.setAttribute('aria-disabled', String(index === 0));
      next.setAttribute('aria-disabled', String(index === slides.length - 1));
    }

    function go(index) {
      const to = Math.max(0, Math.min(slides.length - 1, index));
      if (to === current) return;
      aimed = to;
      window.clearTimeout(aimTimer);
      aimTimer = window.setTimeout(() => (aimed = null), 1000);
      track.scrollTo({
        left: slides[to].offsetLeft,
        behavior: still.matches ? 'auto' : 'smooth',
      });
      show(to);
    }

    // The slide in view after any scroll: by finger, wheel, keys or the buttons.
    let frame = 0;
    track.addEventListener('scroll', () => {
      window.cancelAnimationFrame(frame);
      frame = window.requestAnimationFrame(() => {
        const width = track.clientWidth || 1;
        const index = Math.round(track.scrollLeft / width);
        if (aimed !== null) {
          if (index === aimed) aimed = null;
          return;
        }
        if (index !== current) show(Math.max(0, Math.min(slides.length - 1, index)));
      });
    });
    prev.addEventListener('click', () => go(current - 1));
    next.addEventListener('click', () => go(current + 1));
    track.addEventListener('keydown', (event) => {
      const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
      if (step === undefined) return;
      event.preventDefault();
      go(current + step);
    });
    show(0);
    gallery.querySelector('[data-gallery-controls]').hidden = false;
  }

  for (const gallery of document.querySelectorAll('[data-gallery]')) init(gallery);
})();
