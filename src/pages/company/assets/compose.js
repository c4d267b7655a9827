// The post composer (views/compose.eta, compose.pages.ts). Without this script the form
// still works for workspace images, and its buttons edit the carousel on the server; with
// it: the kind of post shows only its parts, files upload straight from the browser with a
// progress bar (the dashboard creates the upload, the browser PUTs the bytes to the signed
// address, the dashboard completes and checks it), the carousel is edited in place, each
// slide is previewed by the service's own renderer as it changes, and the caption and
// hashtags are counted as they are typed. The server's checks are the ones that count.
(() => {
  const TYPES = {
    mp4: 'video/mp4',
    mov: 'video/quicktime',
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    webp: 'image/webp',
    heic: 'image/heic',
    heif: 'image/heif',
  };
  const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'];
  const PREVIEW_DELAY = 400;
  const count = (n) => n.toLocaleString('en-US');
  const megabytes = (bytes) => `${Math.round(bytes / 1024 / 1024)} MB`;
  const wait = (ms) => new Promise((resolve) => window.setTimeout(resolve, ms));

  function init(form) {
    if (form.dataset.ready) return;
    form.dataset.ready = 'true';
    const base = form.dataset.base;
    const csrf = form.querySelector('input[name=_csrf]').value;
    const max = (name) => Number(form.dataset[name]);
    const slidesList = form.querySelector('[data-slides]');
    const slideTemplate = form.querySelector('template[data-slide-template]');
    const textTemplate = form.querySelector('template[data-text-template]');
    const live = document.createElement('p');
    live.className = 'visually-hidden';
    live.setAttribute('aria-live', 'polite');
    form.append(live);
    const say = (text) => {
      live.textContent = text;
    };
    let uploading = 0;

    // ---- talking to the dashboard ----
    async function send(method, url, body) {
      let res;
      try {
        res = await fetch(url, {
          method,
          credentials: 'same-origin',
          headers: {
            'x-csrf-token': csrf,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      } catch {
        return { ok: false, status: 0, message: 'The service could not be reached; try again.' };
      }
      if (res.redirected && /\/sign-in/.test(res.url)) {
        return {
          ok: false,
          status: 401,
          message: 'You were signed out: sign in again, then retry.',
        };
      }
      const type = res.headers.get('content-type') ?? '';
      if (type.includes('json')) {
        const data = await res.json();
        return { ok: res.ok, status: res.status, data, message: data.error ?? '' };
      }
      if (type.startsWith('image/'))
        return { ok: res.ok, status: res.status, blob: await res.blob() };
      const html = await res.text();
      const alert = new DOMParser()
        .parseFromString(html, 'text/html')
        .querySelector('[role=alert]');
      return {
        ok: false,
        status: res.status,
        message: alert?.textContent?.trim() || `The service answered ${res.status}.`,
      };
    }

    // ---- the kind of post ----
    const kindOf = () => form.querySelector('input[name=kind]:checked')?.value ?? 'video';
    function showKind() {
      const kind = kindOf();
      form.dataset.kind = kind;
      form.querySelectorAll('[data-for-kind]').forEach((el) => {
        el.hidden = !el.dataset.forKind.split(' ').includes(kind);
      });
      if (kind !== 'carousel') return;
      if (slides().length === 0) {
        newSlide();
        newSlide();
        renumber();
      }
      slides().forEach((s) => preview(s, 0));
    }

    // ---- caption and hashtags ----
    const caption = form.querySelector('#caption');
    const captionCount = form.querySelector('[data-counter=caption]');
    let captionOver = false;
    function countCaption() {
      const n = [...caption.value].length;
      const over = n > max('maxCaption');
      captionCount.querySelector('[data-count]').textContent = count(n);
      captionCount.classList.toggle('over', over);
      if (over !== captionOver) {
        say(
          over
            ? `The caption is over ${count(max('maxCaption'))} characters.`
            : 'The caption fits.',
        );
        captionOver = over;
      }
    }
    const hashtags = form.querySelector('#hashtags');
    function showHashtags() {
      const list = hashtags.value
        .split(/[\s,]+/)
        .map((t) => t.replace(/^#+/, ''))
        .filter((t) => t !== '');
      const chips = form.querySelector('[data-hashtag-chips]');
      chips.replaceChildren(
        ...list.map((t) => {
          const chip = document.createElement('span');
          chip.className = [...t].length > max('maxHashtagChars') ? 'chip over' : 'chip';
          chip.textContent = `#${t}`;
          return chip;
        }),
      );
      const counter = form.querySelector('[data-hashtag-count]');
      counter.textContent = `${list.length} of ${max('maxHashtags')} hashtags`;
      counter.classList.toggle('over', list.length > max('maxHashtags'));
    }

    // ---- uploads ----
    function typeOf(file) {
      const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
      return TYPES[ext] ?? file.type;
    }

    /** A list item telling how one file's upload goes. */
    function uploadItem(list, file) {
      const item = document.createElement('li');
      const name = document.createElement('span');
      name.className = 'upload-name';
      name.textContent = file.name;
      const bar = document.createElement('progress');
      bar.max = 100;
      bar.value = 0;
      bar.setAttribute('aria-label', `Uploading ${file.name}`);
      const state = document.createElement('span');
      state.className = 'upload-state';
      state.textContent = 'Waiting…';
      item.append(name, bar, state);
      list.append(item);
      return {
        progress: (percent) => {
          bar.value = percent;
        },
        state: (text) => {
          state.textContent = text;
        },
        fail: (text) => {
          bar.remove();
          item.classList.add('failed');
          state.textContent = text;
          state.setAttribute('role', 'alert');
        },
        done: (text) => {
          bar.remove();
          item.classList.add('done');
          state.textContent = text;
        },
      };
    }

    /** The bytes to the signed address, with progress; the storage's refusal on failure. */
    function put(url, file, contentType, progress) {
      return new Promise((resolve) => {
        const xhr = new window.XMLHttpRequest();
        xhr.open('PUT', url);
        xhr.setRequestHeader('content-type', contentType);
        xhr.upload.addEventListener('progress', (e) => {
          if (e.lengthComputable) progress(Math.round((e.loaded / e.total) * 100));
        });
        xhr.addEventListener('load', () => {
          if (xhr.status >= 200 && xhr.status < 300) return resolve(null);
          let message = `The file was refused (${xhr.status}).`;
          try {
            message = JSON.parse(xhr.responseText).error.message ?? message;
          } catch {
            // An object store answers XML; the status says enough.
          }
          resolve(message);
        });
        xhr.addEventListener('error', () =>
          resolve('The file could not be sent: the connection failed.'),
        );
        xhr.send(file);
      });
    }

    /** Create, send, complete: the upload's view when it passed its checks, else null. */
    async function uploadOne(file, kind, ui) {
      const contentType = typeOf(file);
      const limit = kind === 'video' ? max('maxVideo') : max('maxImage');
      if (file.size > limit) {
        ui.fail(`${file.name} is ${megabytes(file.size)}; at most ${megabytes(limit)}.`);
        return null;
      }
      if (kind === 'image' && !IMAGE_TYPES.includes(contentType)) {
        ui.fail(`${file.name} is not a PNG, JPEG, WebP or HEIC image.`);
        return null;
      }
      uploading++;
      try {
        ui.state('Starting…');
        const created = await send('POST', `${base}/compose/uploads`, {
          kind,
          filename: file.name,
          contentType,
          sizeBytes: file.size,
        });
        if (!created.ok) {
          ui.fail(created.message);
          return null;
        }
        ui.state('Uploading…');
        const refused = await put(created.data.uploadUrl, file, contentType, ui.progress);
        if (refused) {
          ui.fail(refused);
          return null;
        }
        ui.progress(100);
        ui.state(kind === 'video' ? 'Checking the video…' : 'Checking the image…');
        const done = await send(
          'POST',
          `${base}/compose/uploads/${encodeURIComponent(created.data.uploadId)}/complete`,
          {},
        );
        if (!done.ok) {
          ui.fail(done.message);
          return null;
        }
        ui.done('Checked and ready.');
        return done.data;
      } finally {
        uploading--;
      }
    }

    /** The upload's thumbnail, once the service has made it (or null). */
    async function thumbnailOf(upload) {
      if (upload.thumbnailUrl) return upload.thumbnailUrl;
      for (let i = 0; i < 20; i++) {
        await wait(750);
        const res = await send(
          'GET',
          `${base}/compose/uploads/${encodeURIComponent(upload.uploadId)}`,
        );
        if (!res.ok) return null;
        if (res.data.thumbnailUrl) return res.data.thumbnailUrl;
        if (res.data.thumbnailStatus === 'failed') return null;
      }
      return null;
    }

    const videoInput = form.querySelector('input[data-upload=video]');
    videoInput.addEventListener('change', async () => {
      const file = videoInput.files?.[0];
      if (!file) return;
      const box = videoInput.closest('[data-upload-box]');
      const list = box.querySelector('[data-upload-list]');
      list.replaceChildren();
      const upload = await uploadOne(file, 'video', uploadItem(list, file));
      if (!upload) return;
      form.querySelector('[data-video-id]').value = upload.uploadId;
      const result = form.querySelector('[data-video-result]');
      const text = document.createElement('p');
      const strong = document.createElement('strong');
      strong.textContent = upload.filename;
      const meta = document.createElement('span');
      meta.className = 'meta';
      const seconds = upload.durationSeconds ? `, ${Math.round(upload.durationSeconds)} s` : '';
      meta.textContent = `${upload.width} × ${upload.height}${seconds} · checked and ready`;
      text.append(strong, document.createElement('br'), meta);
      result.replaceChildren(text);
      result.hidden = false;
      say(`${upload.filename} is uploaded and ready.`);
      const url = await thumbnailOf(upload);
      if (url && form.querySelector('[data-video-id]').value === upload.uploadId) {
        const img = document.createElement('img');
        img.src = url;
        img.alt = `First frame of ${upload.filename}`;
        img.width = 90;
        img.height = 160;
        result.prepend(img);
      }
    });

    /** A slide's choice of one of the form's images (its box in the images list). */
    function optionFor(box) {
      const option = document.createElement('option');
      const heic = box.hasAttribute('data-heic');
      option.value = box.value;
      option.textContent = heic
        ? `${box.dataset.label} (HEIC: cannot be drawn)`
        : box.dataset.label;
      option.disabled = heic;
      return option;
    }

    /** A new slide's image choices: the form's images, grouped as the server lists them. */
    function fillImages(select) {
      const group = (label, boxes) => {
        const g = document.createElement('optgroup');
        g.label = label;
        g.append(...[...boxes].map(optionFor));
        return g;
      };
      const uploaded = group(
        'Uploaded here',
        form.querySelectorAll('[data-uploaded-list] input[name=image]'),
      );
      uploaded.dataset.uploadedGroup = '';
      uploaded.hidden = uploaded.children.length === 0;
      select.append(uploaded);
      form.querySelectorAll('details[data-folder]').forEach((folder) => {
        select.append(
          group(
            `Workspace: ${folder.dataset.folder}`,
            folder.querySelectorAll('input[name=image]'),
          ),
        );
      });
    }

    /** An uploaded image joins the form's images: to tick for photos, to pick on slides. */
    function addToLibrary(upload) {
      const list = form.querySelector('[data-uploaded-list]');
      const item = document.createElement('li');
      const label = document.createElement('label');
      label.className = 'pick-thumb';
      const heic = /hei[cf]/i.test(upload.contentType);
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.name = 'image';
      box.value = upload.uploadId;
      box.dataset.label = upload.filename;
      if (heic) box.dataset.heic = '';
      box.checked = form.querySelectorAll('input[name=image]:checked').length < max('maxImages');
      const img = document.createElement('img');
      img.alt = '';
      img.width = 72;
      img.height = 72;
      const name = document.createElement('span');
      name.textContent = `${upload.filename} `;
      const meta = document.createElement('span');
      meta.className = 'meta';
      meta.textContent = 'uploaded';
      name.append(meta);
      label.append(box, img, name);
      const kept = document.createElement('input');
      kept.type = 'hidden';
      kept.name = 'uploaded';
      kept.value = upload.uploadId;
      item.append(label, kept);
      list.append(item);
      list.hidden = false;
      const selects = [...form.querySelectorAll('select[data-image-select]')];
      for (const select of selects) {
        const group = select.querySelector('[data-uploaded-group]');
        group.append(optionFor(box));
        group.hidden = false;
      }
      // A carousel's first slide without an image takes it.
      const empty = selects.find((s) => s.value === '');
      if (!heic && empty && kindOf() === 'carousel') {
        empty.value = upload.uploadId;
        preview(empty.closest('[data-slide]'), 0);
      }
      thumbnailOf(upload).then((url) => {
        if (url) img.src = url;
      });
    }

    const imageInput = form.querySelector('input[data-upload=image]');
    imageInput.addEventListener('change', async () => {
      const files = [...(imageInput.files ?? [])];
      const list = imageInput.closest('[data-upload-box]').querySelector('[data-upload-list]');
      const items = files.map((file) => [file, uploadItem(list, file)]);
      imageInput.value = '';
      for (const [file, ui] of items) {
        const upload = await uploadOne(file, 'image', ui);
        if (upload) addToLibrary(upload);
      }
      say(`${items.length === 1 ? 'The image was' : 'The images were'} handled; see the list.`);
    });

    // ---- the carousel editor ----
    const slides = () => [...slidesList.querySelectorAll(':scope > [data-slide]')];
    const textsOf = (slide) => [...slide.querySelectorAll('[data-texts] > [data-text]')];

    /** Names, ids and labels after slides or text boxes moved (compose-form.ts's scheme). */
    function renumber() {
      slides().forEach((slide, i) => {
        const s = String(i + 1);
        slide.querySelector('[data-slide-title]').textContent = `Slide ${s}`;
        const name = (f, j) => (j === undefined ? `s${i}.${f}` : `s${i}.t${j}.${f}`);
        const id = (f, j) => name(f, j).replace(/\./g, '-');
        const own = (el) => el.closest('[data-text]');
        const text = (el) => (own(el) ? textsOf(slide).indexOf(own(el)) : undefined);
        slide.querySelectorAll('[data-f]').forEach((el) => {
          const j = text(el);
          el.name = name(el.dataset.f, j);
          el.id = id(el.dataset.f, j);
          if (el.hasAttribute('aria-describedby'))
            el.setAttribute('aria-describedby', `${el.id}-error`);
        });
        slide.querySelectorAll('label[data-for]').forEach((el) => {
          el.htmlFor = id(el.dataset.for, text(el));
        });
        slide.querySelectorAll('[data-err]').forEach((el) => {
          el.id = `${id(el.dataset.err, text(el))}-error`;
        });
        slide.querySelector('[data-texts]').id = `s${i}-texts`;
        textsOf(slide).forEach((box, j) => {
          box.querySelector('[data-text-title]').textContent = `Text ${j + 1}`;
        });
        slide.querySelectorAll('[data-label]').forEach((el) => {
          const j = text(el);
          const t = j === undefined ? '' : String(j + 1);
          el.setAttribute('aria-label', el.dataset.label.replace('{s}', s).replace('{t}', t));
        });
        slide.querySelectorAll('button[data-op]').forEach((el) => {
          const j = text(el);
          el.value = `${el.dataset.op}:${i}${j === undefined ? '' : `.${j}`}`;
        });
        const add = slide.querySelector('button[data-op=add-text]');
        add.disabled = textsOf(slide).length >= max('maxTexts');
      });
      form.querySelector('button[data-op=add-slide]').disabled =
        slides().length >= max('maxSlides');
    }

    function newText(slide) {
      const box = textTemplate.content.firstElementChild.cloneNode(true);
      const y = Math.min(90, 30 + textsOf(slide).length * 15);
      box.querySelector('[data-f=positionY]').value = String(y);
      slide.querySelector('[data-texts]').append(box);
      return box;
    }

    function newSlide() {
      const slide = slideTemplate.content.firstElementChild.cloneNode(true);
      fillImages(slide.querySelector('[data-f=image]'));
      form.querySelector('[data-no-slides]')?.remove();
      slidesList.append(slide);
      newText(slide).querySelector('[data-f=positionY]').value = '50';
      slide.querySelector('[data-preview]').hidden = false;
      return slide;
    }

    const OPS = {
      'add-slide': () => {
        if (slides().length >= max('maxSlides')) return null;
        const slide = newSlide();
        return {
          focus: slide.querySelector('[data-f=image]'),
          said: `Slide ${slides().length} added.`,
        };
      },
      'remove-slide': (slide) => {
        const next = slide.nextElementSibling ?? slide.previousElementSibling;
        slide.remove();
        const focus =
          next?.querySelector('[data-f=image]') ?? form.querySelector('button[data-op=add-slide]');
        return { focus, said: 'Slide removed.' };
      },
      'up-slide': (slide) => {
        const before = slide.previousElementSibling;
        if (before) slide.after(before);
        return { said: 'Slide moved up.' };
      },
      'down-slide': (slide) => {
        const after = slide.nextElementSibling;
        if (after) slide.before(after);
        return { said: 'Slide moved down.' };
      },
      'add-text': (slide) => {
        if (textsOf(slide).length >= max('maxTexts')) return null;
        const box = newText(slide);
        return {
          focus: box.querySelector('[data-f=content]'),
          said: 'Text box added.',
          draw: slide,
        };
      },
      'remove-text': (slide, box) => {
        const next = box.nextElementSibling ?? box.previousElementSibling;
        box.remove();
        const focus =
          next?.querySelector('[data-f=content]') ??
          slide.querySelector('button[data-op=add-text]');
        return { focus, said: 'Text box removed.', draw: slide };
      },
      'up-text': (slide, box) => {
        const before = box.previousElementSibling;
        if (before) box.after(before);
        return { said: 'Text box moved up.', draw: slide };
      },
      'down-text': (slide, box) => {
        const after = box.nextElementSibling;
        if (after) box.before(after);
        return { said: 'Text box moved down.', draw: slide };
      },
    };

    form.addEventListener('click', (e) => {
      const button = e.target instanceof HTMLElement ? e.target.closest('button[data-op]') : null;
      if (!button || !form.contains(button)) return;
      e.preventDefault();
      const op = OPS[button.dataset.op];
      const outcome = op?.(button.closest('[data-slide]'), button.closest('[data-text]'));
      if (!outcome) return;
      renumber();
      if (outcome.draw) preview(outcome.draw, 0);
      (outcome.focus ?? button).focus();
      say(outcome.said);
    });

    // ---- previews ----
    // One preview is asked for at a time (the service draws one at a time for a person);
    // each slide waits for a pause in the typing.
    const waiting = new Set();
    const timers = new Map();
    let drawing = false;

    function slideJson(slide) {
      const value = (el) => el.value.trim();
      const out = { image: value(slide.querySelector('[data-f=image]')), textElements: [] };
      const fit = value(slide.querySelector('[data-f=imageFit]'));
      const role = value(slide.querySelector('[data-f=role]'));
      if (fit) out.imageFit = fit;
      if (role) out.role = role;
      for (const box of textsOf(slide)) {
        const content = box.querySelector('[data-f=content]').value;
        if (content.trim() === '') continue;
        const style = {};
        box.querySelectorAll('[data-f]').forEach((el) => {
          const v = value(el);
          if (el.dataset.f === 'content' || v === '') return;
          style[el.dataset.f] = el.type === 'number' && Number.isFinite(Number(v)) ? Number(v) : v;
        });
        out.textElements.push({ content, style });
      }
      return out;
    }

    function preview(slide, delay = PREVIEW_DELAY) {
      if (!slide) return;
      window.clearTimeout(timers.get(slide));
      timers.set(
        slide,
        window.setTimeout(() => {
          waiting.add(slide);
          pump();
        }, delay),
      );
    }

    async function pump() {
      if (drawing) return;
      const slide = waiting.values().next().value;
      if (!slide) return;
      waiting.delete(slide);
      drawing = true;
      try {
        await draw(slide);
      } finally {
        drawing = false;
        pump();
      }
    }

    async function draw(slide) {
      if (!slide.isConnected || kindOf() !== 'carousel') return;
      const figure = slide.querySelector('[data-preview]');
      const canvas = figure.querySelector('canvas');
      const status = figure.querySelector('[data-preview-status]');
      const body = slideJson(slide);
      if (!body.image) {
        canvas.getContext('2d').clearRect(0, 0, canvas.width, canvas.height);
        figure.dataset.state = 'empty';
        status.textContent = 'Choose a background image to see this slide.';
        return;
      }
      figure.dataset.state = 'drawing';
      status.textContent = 'Drawing…';
      const res = await send('POST', `${base}/compose/preview`, body);
      if (res.status === 429) {
        window.setTimeout(() => preview(slide, 0), 1000);
        return;
      }
      if (!res.ok || !res.blob) {
        figure.dataset.state = 'error';
        status.textContent = res.message || 'The preview could not be drawn.';
        return;
      }
      const bitmap = await window.createImageBitmap(res.blob);
      canvas.width = bitmap.width;
      canvas.height = bitmap.height;
      canvas.getContext('2d').drawImage(bitmap, 0, 0);
      bitmap.close();
      figure.dataset.state = 'ready';
      status.textContent = 'Preview as Slotline draws it.';
    }

    // ---- wiring ----
    form.addEventListener('input', (e) => {
      const el = e.target;
      if (el === caption) countCaption();
      else if (el === hashtags) showHashtags();
      const slide = el instanceof HTMLElement ? el.closest('[data-slide]') : null;
      if (slide) preview(slide);
    });
    form.addEventListener('change', (e) => {
      const el = e.target;
      if (el instanceof HTMLElement && el.matches('input[name=kind]')) showKind();
      const slide = el instanceof HTMLElement ? el.closest('[data-slide]') : null;
      if (slide) preview(slide, 0);
    });
    // Enter in a slide's field previews it rather than sending the form.
    form.addEventListener('keydown', (e) => {
      const el = e.target;
      if (e.key !== 'Enter' || !(el instanceof HTMLElement) || el.tagName !== 'INPUT') return;
      const slide = el.closest('[data-slide]');
      if (!slide) return;
      e.preventDefault();
      preview(slide, 0);
    });
    const submit = form.querySelector('button[data-submit]');
    const submitStatus = form.querySelector('[data-submit-status]');
    form.addEventListener('submit', (e) => {
      if (uploading > 0) {
        e.preventDefault();
        submitStatus.textContent = 'Wait for the uploads to finish, then create the post.';
        return;
      }
      // One click, one post: the form's key makes a second send harmless, and this stops it.
      window.setTimeout(() => {
        submit.disabled = true;
        submitStatus.textContent = 'Creating the post…';
      }, 0);
    });
    window.addEventListener('pageshow', () => {
      submit.disabled = false;
      submitStatus.textContent = '';
    });

    form.querySelectorAll('input[data-upload]').forEach((input) => {
      input.disabled = false;
    });
    form.querySelectorAll('[data-preview]').forEach((figure) => {
      figure.hidden = false;
    });
    renumber();
    countCaption();
    showHashtags();
    showKind();
  }

  function initAll() {
    document.querySelectorAll('form[data-composer]').forEach(init);
  }
  // A boosted navigation brings the page in without loading this script again.
  if (!window.slotlineComposer) {
    window.slotlineComposer = true;
    document.addEventListener('htmx:afterSettle', initAll);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', initAll);
  else initAll();
})();
