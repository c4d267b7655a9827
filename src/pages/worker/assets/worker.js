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
})();
