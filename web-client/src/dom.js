// A tiny render helper: `h()` builds elements, `patch()` morphs the live DOM into a
// freshly built tree in place, so focus, caret, open <details>, scroll positions and
// native widgets survive a re-render. Children with a `key` are matched by key.

/**
 * @typedef {Record<string, any> | null | undefined} Props
 * @typedef {Node | string | number | null | undefined | false | any[]} Child
 */

const HANDLERS = Symbol('handlers');
const LISTENING = Symbol('listening');
/** On a placeholder `memo()` made: what it stands for, `{deps, build}`. */
const THUNK = Symbol('thunk');
/** On an element built by a `memo()`: the deps it was built from. */
const BUILT_FROM = Symbol('builtFrom');

/** @param {Event} e */
function dispatch(e) {
  const el = /** @type {any} */ (e.currentTarget);
  const fn = el[HANDLERS]?.[e.type];
  if (fn) fn(e);
}

/** @param {any} el @param {string} type */
function listen(el, type) {
  el[LISTENING] ??= new Set();
  if (!el[LISTENING].has(type)) {
    el[LISTENING].add(type);
    el.addEventListener(type, dispatch);
  }
}

/** Sets `fn` as `el`'s handler of the event prop `onX` names. @param {any} el @param {string} prop @param {Function} fn */
function handle(el, prop, fn) {
  const type = prop.slice(2).toLowerCase();
  el[HANDLERS] ??= {};
  el[HANDLERS][type] = fn;
  listen(el, type);
}

/**
 * Builds an element. Props: `class` (string or array), `key` (stable identity among
 * siblings), `on<event>` handlers, `value`/`checked`/`selected`/`disabled` as
 * properties, everything else as attributes (`true` → empty attribute).
 * @param {string} tag @param {Props} [props] @param {...Child} children
 * @returns {HTMLElement}
 */
export function h(tag, props, ...children) {
  const el = /** @type {any} */ (document.createElement(tag));
  let value;
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (k.startsWith('on') && typeof v === 'function') {
        handle(el, k, v);
      } else if (v == null || v === false) {
        continue;
      } else if (k === 'class') {
        const cls = Array.isArray(v) ? v.filter(Boolean).join(' ') : String(v);
        if (cls) el.setAttribute('class', cls);
      } else if (k === 'key') {
        el.setAttribute('data-key', String(v));
      } else if (k === 'value') {
        value = v;
      } else if (k === 'checked' || k === 'selected') {
        el[k] = true;
        el.setAttribute(k, '');
      } else {
        el.setAttribute(k, v === true ? '' : String(v));
      }
    }
  }
  append(el, children);
  if (value !== undefined) {
    el.value = String(value);
    if (tag === 'input' || tag === 'textarea') el.setAttribute('value', String(value));
    el.dataset.value = String(value);
  }
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * Builds an SVG element (charts): every prop an attribute as given, except `on<event>`
 * handlers and `key`, as for `h()`. `h()` makes HTML elements, which an <svg> does not draw.
 * @param {string} tag @param {Record<string, any>} props @param {...Child} children
 * @returns {SVGElement}
 */
export function svg(tag, props, ...children) {
  const el = /** @type {any} */ (document.createElementNS(SVG_NS, tag));
  for (const [k, v] of Object.entries(props)) {
    if (k.startsWith('on') && typeof v === 'function') {
      handle(el, k, v);
    } else if (v == null || v === false) {
      continue;
    } else {
      el.setAttribute(k === 'key' ? 'data-key' : k, String(v));
    }
  }
  append(el, children);
  return el;
}

/**
 * A subtree built only when it is new or its `deps` changed since the live one was built:
 * a placeholder `<tag data-key=key>` that `patch()` replaces by `build()`'s element, or
 * skips when the element in the page was built from the same deps (compared one by one
 * with `===`). A long list whose old entries never change (the game log) then costs a
 * render only its new entries, not one `h()` and one morph of every entry: in a long
 * game the log was most of the page's script time.
 *
 * `deps` must hold everything the subtree shows and every value its handlers use: a
 * skipped subtree keeps the attributes, text and handlers it was built with.
 * @param {string} tag @param {string | number} key @param {any[]} deps @param {() => Element} build
 * @returns {HTMLElement}
 */
export function memo(tag, key, deps, build) {
  const el = /** @type {any} */ (document.createElement(tag));
  el.setAttribute('data-key', String(key));
  // Marks it for `realizeAll`'s search; a built element does not carry it.
  el.setAttribute('data-memo', '');
  el[THUNK] = { deps, build };
  return el;
}

/** @param {any[] | undefined} a @param {any[]} b */
function sameDeps(a, b) {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A `memo()` placeholder's element, built. @param {any} placeholder @returns {any} */
function realize(placeholder) {
  const { deps, build } = placeholder[THUNK];
  const el = /** @type {any} */ (build());
  el.setAttribute('data-key', placeholder.getAttribute('data-key'));
  el[BUILT_FROM] = deps;
  return el;
}

/**
 * Replaces every `memo()` placeholder in `node` (about to enter the page as it is) by its
 * built element, and those its builds hold in turn. The browser's own search finds them,
 * so a new subtree without any costs one native lookup, not a walk in script.
 * @param {any} node @returns {any}
 */
function realizeAll(node) {
  if (node[THUNK]) node = realize(node);
  if (node.nodeType !== 1) return node;
  for (let p = node.querySelector('[data-memo]'); p; p = node.querySelector('[data-memo]')) {
    p.replaceWith(realize(p));
  }
  return node;
}

/** @param {Node} el @param {Child[]} children */
function append(el, children) {
  for (const c of children) {
    if (c == null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
  }
}

/** @param {Node} n */
function keyOf(n) {
  return n.nodeType === 1 ? /** @type {Element} */ (n).getAttribute('data-key') : null;
}

/** @param {Node} a @param {Node} b */
function same(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName;
}

/**
 * Morphs `live` (in the document) into `next` (freshly built), reusing nodes.
 * @param {Node} live @param {Node} next
 */
function morph(live, next) {
  if (live.nodeType === 3 || live.nodeType === 8) {
    if (live.nodeValue !== next.nodeValue) live.nodeValue = next.nodeValue;
    return;
  }
  const a = /** @type {any} */ (live);
  const b = /** @type {any} */ (next);
  // attributes
  for (const attr of [...a.attributes]) {
    // An open <details> stays as the person left it.
    if (attr.name === 'open' && a.nodeName === 'DETAILS') continue;
    if (!b.hasAttribute(attr.name)) a.removeAttribute(attr.name);
  }
  for (const attr of [...b.attributes]) {
    if (a.getAttribute(attr.name) !== attr.value) a.setAttribute(attr.name, attr.value);
  }
  // handlers
  a[HANDLERS] = b[HANDLERS];
  for (const type of Object.keys(b[HANDLERS] ?? {})) listen(a, type);
  // form state
  if (a.nodeName === 'INPUT') {
    if (a.type === 'checkbox' || a.type === 'radio') {
      if (a.checked !== b.checked) a.checked = b.checked;
    } else if (b.dataset.value !== undefined && a.value !== b.value) {
      a.value = b.value;
    }
  }
  if (a.nodeName === 'OPTION' && a.selected !== b.selected) a.selected = b.selected;
  morphChildren(a, b);
  if (a.nodeName === 'SELECT' && b.dataset.value !== undefined && a.value !== b.dataset.value) {
    a.value = b.dataset.value;
  }
  if (a.nodeName === 'TEXTAREA' && b.dataset.value !== undefined && a.value !== b.value) a.value = b.value;
}

/** @param {Node} live @param {Node} next */
function morphChildren(live, next) {
  const oldKids = [...live.childNodes];
  const keyed = new Map();
  const unkeyed = [];
  for (const k of oldKids) {
    const key = keyOf(k);
    if (key != null && !keyed.has(key)) keyed.set(key, k);
    else unkeyed.push(k);
  }
  let u = 0;
  const result = [];
  for (let n of [...next.childNodes]) {
    const key = keyOf(n);
    let match = null;
    if (key != null) {
      match = keyed.get(key) ?? null;
      keyed.delete(key);
    } else {
      while (u < unkeyed.length && keyOf(unkeyed[u]) != null) u++;
      match = unkeyed[u++] ?? null;
    }
    const thunk = /** @type {any} */ (n)[THUNK];
    if (thunk) {
      if (match && same(match, n) && sameDeps(/** @type {any} */ (match)[BUILT_FROM], thunk.deps)) {
        result.push(match);
        continue;
      }
      n = realize(n);
    }
    if (match && same(match, n)) {
      morph(match, n);
      /** @type {any} */ (match)[BUILT_FROM] = /** @type {any} */ (n)[BUILT_FROM];
      result.push(match);
    } else {
      result.push(realizeAll(n));
    }
  }
  const keep = new Set(result);
  for (const k of oldKids) if (!keep.has(k)) live.removeChild(k);
  result.forEach((node, i) => {
    if (live.childNodes[i] !== node) live.insertBefore(node, live.childNodes[i] ?? null);
  });
}

/**
 * Makes `container`'s content equal to `tree`.
 * @param {Element} container @param {Child} tree
 */
export function patch(container, tree) {
  const next = document.createElement(container.nodeName);
  append(next, [tree]);
  morphChildren(container, next);
}

/** Joins class names, skipping falsy ones. @param {...any} names */
export function cx(...names) {
  return names.filter(Boolean).join(' ');
}
