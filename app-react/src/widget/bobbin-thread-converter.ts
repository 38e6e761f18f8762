// <bobbin-thread-converter>: the thread converter as a custom element for any web page, without
// React. One script (this file, bundled with the thread catalogue inlined) and one .wasm file,
// fetched from next to the script:
//
//   <script type="module" src="https://bobbin.example/widget/bobbin-thread-converter.js"></script>
//   <bobbin-thread-converter from="isacord-polyester" to="madeira-polyneon,sulky-rayon"></bobbin-thread-converter>
//
// Attributes: `from` (line id of the codes typed; without it only hex colours are read), `to`
// (comma-separated line ids; all thread lines when absent), `matches` (per line, default 3),
// `value` (an initial code or hex colour). It fires `bobbin-convert` with the conversion as
// `detail` after every conversion. Styles live in the element's shadow root.
import catalogue from 'bobbin:catalogue-bytes';
import init, { catalogueLines, convert, loadCatalogue } from '@bobbin/core-wasm';
import type { Conversion, MatchLabel, Source } from '@bobbin/core-wasm';

const LABELS: Record<MatchLabel, string> = {
  indistinguishable: 'Indistinguishable',
  close: 'Close',
  similar: 'Similar',
  poor: 'Poor match',
};

const STYLE = `
:host { display: block; font: 16px/1.4 system-ui, sans-serif; color: #1c1917; max-width: 32rem; }
label { display: block; font-weight: 600; font-size: 0.875rem; margin-bottom: 0.25rem; }
input { box-sizing: border-box; width: 100%; min-height: 2.75rem; padding: 0.5rem 0.75rem; font: inherit;
  border: 1px solid #a8a29e; border-radius: 0.5rem; }
input:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
.message { color: #57534e; font-size: 0.875rem; margin: 0.5rem 0; }
.error { color: #b91c1c; }
h3 { font-size: 1rem; margin: 1rem 0 0.25rem; }
ol { list-style: none; margin: 0; padding: 0; }
li { display: flex; align-items: center; gap: 0.75rem; padding: 0.375rem 0; border-top: 1px solid #e7e5e4; }
.pair { display: inline-flex; }
.swatch { display: inline-block; width: 2rem; height: 2rem; box-shadow: inset 0 0 0 1px rgb(0 0 0 / 25%); }
.pair .swatch:first-child { border-radius: 0.25rem 0 0 0.25rem; }
.pair .swatch:last-child { border-radius: 0 0.25rem 0.25rem 0; }
.thread { flex: 1; }
.code { font-family: ui-monospace, monospace; font-weight: 600; }
.label { font-size: 0.875rem; white-space: nowrap; color: #57534e; }
.credit { font-size: 0.75rem; color: #57534e; margin-top: 0.5rem; }
`;

let ready: Promise<void> | undefined;
/** Set once the module and the catalogue are in: attribute changes before that wait for it. */
let loaded = false;

/** Instantiates the module (from beside this script) and reads the inlined catalogue, once per page. */
function loadCore(): Promise<void> {
  ready ??= init({ module_or_path: new URL('bobbin-thread-converter.wasm', import.meta.url) }).then(() => {
    loadCatalogue(catalogue);
    loaded = true;
  });
  return ready;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function swatch(hex: string): HTMLSpanElement {
  const node = element('span', 'swatch');
  // A CSSOM property, not a style attribute, so a page's CSP without 'unsafe-inline' allows it.
  node.style.backgroundColor = hex;
  node.setAttribute('aria-hidden', 'true');
  return node;
}

export class BobbinThreadConverter extends HTMLElement {
  static observedAttributes = ['from', 'to', 'matches', 'value'];

  readonly #input = element('input');
  readonly #output = element('div');
  readonly #status = element('p', 'message');

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLE);
    root.adoptedStyleSheets = [sheet];
    const label = element('label');
    label.htmlFor = 'source';
    this.#input.id = 'source';
    this.#input.autocomplete = 'off';
    this.#input.spellcheck = false;
    this.#input.addEventListener('input', () => this.#render());
    this.#status.setAttribute('role', 'status');
    this.#output.setAttribute('aria-live', 'polite');
    const credit = element('p', 'credit', 'Colour differences are CIEDE2000 (ΔE). Thread converter by Bobbin.');
    root.append(label, this.#input, this.#status, this.#output, credit);
  }

  connectedCallback() {
    if (!this.#input.value && this.getAttribute('value')) this.#input.value = this.getAttribute('value') ?? '';
    this.#status.textContent = 'Loading…';
    loadCore().then(
      () => this.#render(),
      (error: unknown) => this.#showError(`The converter could not load: ${String(error)}`),
    );
  }

  attributeChangedCallback() {
    if (loaded) this.#render();
  }

  #render() {
    const from = this.getAttribute('from') ?? '';
    const to = (this.getAttribute('to') ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
    const matches = Number(this.getAttribute('matches') ?? 3) || 3;
    const lines = catalogueLines();
    const fromLine = lines.find((line) => line.id === from);
    const label = this.shadowRoot?.querySelector('label');
    if (label) label.textContent = fromLine ? `${fromLine.display_name} code or #hex colour` : 'Hex colour, like #C8102E';
    this.#input.placeholder = fromLine ? 'e.g. 1902' : '#C8102E';
    this.#output.replaceChildren();
    const text = this.#input.value.trim();
    if (!text) {
      this.#status.textContent = 'Type a code or colour to see the closest threads.';
      this.#status.classList.remove('error');
      return;
    }
    const source: Source = text.startsWith('#') || !fromLine ? { hex: text } : { thread: { line: fromLine.id, code: text } };
    let conversion: Conversion;
    try {
      conversion = convert({ from: source, to, matches });
    } catch (error) {
      this.#showError(error instanceof Error ? error.message : String(error));
      return;
    }
    this.#status.classList.remove('error');
    const name = conversion.source.thread ? `${conversion.source.thread.code} ${conversion.source.thread.name}` : conversion.source.hex;
    this.#status.textContent = `Closest threads to ${name}:`;
    for (const line of conversion.lines) {
      const list = element('ol');
      for (const match of line.matches) {
        const item = element('li');
        const pair = element('span', 'pair');
        pair.append(swatch(conversion.source.hex), swatch(match.thread.hex));
        const thread = element('span', 'thread');
        thread.append(element('span', 'code', match.thread.code), ` ${match.thread.name}`);
        item.append(pair, thread, element('span', 'label', `${LABELS[match.label]} · ΔE ${match.delta_e.toFixed(1)}`));
        list.append(item);
      }
      this.#output.append(element('h3', undefined, line.line_name), list);
    }
    this.dispatchEvent(new CustomEvent('bobbin-convert', { detail: conversion, bubbles: true, composed: true }));
  }

  #showError(message: string) {
    this.#output.replaceChildren();
    this.#status.textContent = message;
    this.#status.classList.add('error');
  }
}

if (!customElements.get('bobbin-thread-converter')) {
  customElements.define('bobbin-thread-converter', BobbinThreadConverter);
}
