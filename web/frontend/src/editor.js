// The CQL editor: a textarea under a highlighted copy of its text (keywords, strings,
// comments, numbers coloured; the error underlined at its line and column), keyword help on
// hover over a keyword and at the caret.

const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

export class CqlEditor {
  /** `textarea` holds the text, `view` (a <pre> above it) shows it coloured, `help` the keyword help. */
  constructor(textarea, view, help) {
    this.textarea = textarea;
    this.view = view;
    this.help = help;
    this.keywords = new Map();  // name without ':' -> {usage, description, family, example}
    this.error = null;          // {line, column, message}
    textarea.addEventListener('input', () => { this.error = null; this.render(); });
    textarea.addEventListener('scroll', () => { view.scrollTop = textarea.scrollTop; });
    for (const event of ['keyup', 'click']) textarea.addEventListener(event, () => this.showHelpAtCaret());
    // A keyword span takes the mouse (for its hover help); a press there puts the caret there.
    view.addEventListener('mousedown', (e) => {
      const span = e.target.closest('[data-pos]');
      if (!span) return;
      e.preventDefault();
      textarea.focus();
      const pos = Number(span.dataset.pos);
      textarea.setSelectionRange(pos, pos);
      this.showHelpAtCaret();
    });
    view.addEventListener('mouseover', (e) => {
      const span = e.target.closest('.kw');
      if (span) this.showHelp(span.dataset.name);
    });
    this.render();
  }

  get text() { return this.textarea.value; }
  set text(value) { this.textarea.value = value; this.error = null; this.render(); }

  /** Sets the keyword table (the rows of /api/keywords). */
  setKeywords(rows) {
    for (const row of rows) this.keywords.set(row.name.toLowerCase(), row);
    this.render();
  }

  /** Underlines line/column (1-based) with `message`; null clears it. */
  setError(error) { this.error = error; this.render(); }

  /** The character offset of 1-based line/column in the text. */
  offsetOf(line, column) {
    let offset = 0;
    const lines = this.text.split('\n');
    for (let i = 0; i < line - 1 && i < lines.length; ++i) offset += lines[i].length + 1;
    return Math.min(offset + column - 1, this.text.length);
  }

  render() {
    const text = this.text;
    const errorAt = this.error && this.error.line ? this.offsetOf(this.error.line, this.error.column) : -1;
    let html = '';
    let i = 0;
    const token = /;[^\n]*|"(?:[^"\\]|\\.)*"?|:[A-Za-z][A-Za-z0-9*]*|\b\d+\b|[^;":\d]+|./gy;
    while (i < text.length) {
      token.lastIndex = i;
      const m = token.exec(text);
      const t = m[0];
      let cls = '';
      let attrs = '';
      if (t[0] === ';') cls = 'cmt';
      else if (t[0] === '"') cls = 'str';
      else if (t[0] === ':') {
        const row = this.keywords.get(t.slice(1).toLowerCase());
        cls = 'kw';
        attrs = ` data-pos="${i}" data-name="${escapeHtml(t.slice(1))}"` +
          (row ? ` title="${escapeHtml(':' + row.name + ' ' + row.usage + ' — ' + row.description)}"` : '');
      } else if (/^\d+$/.test(t)) cls = 'num';
      // the error: underline from its offset to the end of the token holding it (at least one char)
      let body = escapeHtml(t);
      if (errorAt >= i && errorAt < i + t.length) {
        const cut = errorAt - i;
        let end = t.length;
        if (!cls) {  // plain text: up to the next blank or parenthesis
          const k = t.slice(cut).search(/[\s()]/);
          if (k >= 0) end = cut + Math.max(k, 1);
        }
        body = escapeHtml(t.slice(0, cut)) + `<span class="err">${escapeHtml(t.slice(cut, end))}</span>` + escapeHtml(t.slice(end));
      }
      html += cls ? `<span class="${cls}"${attrs}>${body}</span>` : body;
      i += t.length;
    }
    if (errorAt >= text.length && this.error) html += '<span class="err"> </span>';
    this.view.innerHTML = html + '\n';
    this.view.scrollTop = this.textarea.scrollTop;
  }

  showHelp(name) {
    const row = name && this.keywords.get(name.toLowerCase());
    if (!row) return;
    this.help.textContent = `:${row.name} ${row.usage} — ${row.description}` + (row.example ? `   e.g. ${row.example}` : '');
  }

  showHelpAtCaret() {
    const pos = this.textarea.selectionStart;
    const before = this.text.slice(0, pos).match(/:([A-Za-z][A-Za-z0-9*]*)$/);
    const after = this.text.slice(pos).match(/^[A-Za-z0-9*]*/);
    if (before) this.showHelp(before[1] + (after ? after[0] : ''));
    else {
      const m = this.text.slice(0, pos + 1).match(/:([A-Za-z][A-Za-z0-9*]*)[A-Za-z0-9*]*$/);
      if (m) this.showHelp(m[1]);
    }
  }
}
