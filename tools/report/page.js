/* bpfvet report: renders each program's listing and panels from the JSON
 * data that bpfvet wrote next to it (docs/report.md). Text is only ever
 * set with textContent, never parsed as HTML. Large programs are drawn a
 * window of rows at a time, all rows being of one height. */
(function () {
'use strict';
var ROW_H = 18, EAGER = 3000, MARGIN = 80;
var KEYS = ['visits', 'states', 'hits', 'misses', 'precise'];
var NAMES = ['visits', 'states stored', 'prune hits', 'prune misses', 'precision marks'];
var ROLES = ['check', 'def', 'origin', 'spill', 'fill', 'narrow', 'arg'];

function el(tag, cls, text) {
	var e = document.createElement(tag);
	if (cls) e.className = cls;
	if (text !== undefined) e.textContent = text;
	return e;
}

/* Pale yellow to dark red, on a log scale: counts span orders of size. */
function heatT(v, max) {
	return v && max ? Math.log(1 + v) / Math.log(1 + max) : 0;
}
function heat(v, max) {
	var t = heatT(v, max);
	if (!t) return '';
	return 'hsl(' + Math.round(55 - 55 * t) + ',95%,' + Math.round(88 - 43 * t) + '%)';
}

/* ?metric=states&show=lines: the controls' first values, for links. */
var SHOWS = ['all', 'visited', 'path', 'lines'];
var query = new URLSearchParams(location.search);

function Prog(sec) {
	var d = JSON.parse(sec.querySelector('script.data').textContent);
	this.sec = sec;
	this.d = d;
	this.n = d.text.length;
	this.metric = Math.max(0, KEYS.indexOf(query.get('metric')));
	this.filter = SHOWS.indexOf(query.get('show')) > 0 ? query.get('show') : 'all';
	this.start = this.end = 0;
	this.index();
	this.build();
	this.setRows();
}

Prog.prototype.index = function () {
	var d = this.d, n = this.n, i, k;
	this.colMax = [0, 0, 0, 0, 0];
	this.lineSum = new Float64Array(d.lines.length * 5);
	this.lineMax = [0, 0, 0, 0, 0];
	for (i = 0; i < n; i++) {
		for (k = 0; k < 5; k++) {
			var v = d.stats[i * 5 + k];
			if (v > this.colMax[k]) this.colMax[k] = v;
			if (d.insnLine[i] >= 0) this.lineSum[d.insnLine[i] * 5 + k] += v;
		}
	}
	for (i = 0; i < d.lines.length; i++)
		for (k = 0; k < 5; k++)
			if (this.lineSum[i * 5 + k] > this.lineMax[k]) this.lineMax[k] = this.lineSum[i * 5 + k];
	this.onPath = new Uint32Array(n);
	this.taken = new Uint32Array(n);
	this.notTaken = new Uint32Array(n);
	for (i = 0; i + 1 < d.path.length; i += 2) {
		var at = d.path[i];
		this.onPath[at]++;
		if (d.path[i + 1] === 1) this.taken[at]++;
		if (d.path[i + 1] === 2) this.notTaken[at]++;
	}
	this.stateOf = {};
	for (i = 0; i < d.states.length; i++) this.stateOf[d.states[i][0]] = d.states[i][1];
	/* Which function each instruction is in, and each function's totals. */
	this.funcs = d.funcs || [];
	this.funcOf = new Int32Array(n).fill(-1);
	this.funcSum = new Float64Array(this.funcs.length * 5);
	this.funcMax = [0, 0, 0, 0, 0];
	for (var f = 0; f < this.funcs.length; f++) {
		var fn = this.funcs[f];
		for (i = fn[0]; i < fn[0] + fn[1] && i < n; i++) {
			this.funcOf[i] = f;
			for (k = 0; k < 5; k++) this.funcSum[f * 5 + k] += d.stats[i * 5 + k];
		}
		for (k = 0; k < 5; k++)
			if (this.funcSum[f * 5 + k] > this.funcMax[k]) this.funcMax[k] = this.funcSum[f * 5 + k];
	}
	this.sliceOf = {};
	for (i = 0; i < d.slice.length; i++) {
		var s = d.slice[i];
		(this.sliceOf[s[0]] = this.sliceOf[s[0]] || []).push(ROLES[s[1]] + ' ' + s[2]);
	}
};

Prog.prototype.where = function (i) {
	var d = this.d, li = d.insnLine[i];
	if (li === undefined || li < 0) return 'insn ' + i;
	return 'insn ' + i + ', ' + d.files[d.lines[li][0]] + ':' + d.lines[li][1] + ': ' + d.lines[li][2];
};

Prog.prototype.jumpLink = function (i, text) {
	var a = el('a', 'jump', text === undefined ? this.where(i) : text);
	a.setAttribute('data-insn', i);
	return a;
};

Prog.prototype.build = function () {
	var sec = this.sec, self = this;
	var ui = sec.querySelector('.ui');
	this.buildDecisions(ui);
	this.buildSlice(ui);
	this.buildControls(ui);
	this.hot = ui.appendChild(el('div', 'panel hot'));
	this.canvas = ui.appendChild(el('canvas', 'overview'));
	this.canvas.title = 'the whole program, coloured by the chosen metric; the failing path in blue below; click to go there';
	this.canvas.addEventListener('click', function (ev) {
		var r = self.canvas.getBoundingClientRect();
		self.jump(Math.floor((ev.clientX - r.left) / r.width * self.n), true);
	});
	this.listing = ui.appendChild(el('div', 'listing'));
	this.head = this.listing.appendChild(el('div', 'row head'));
	this.topPad = this.listing.appendChild(el('div'));
	this.box = this.listing.appendChild(el('div', 'rows'));
	this.botPad = this.listing.appendChild(el('div'));
	this.listing.addEventListener('scroll', function () {
		if (self.pending) return;
		self.pending = true;
		requestAnimationFrame(function () { self.pending = false; self.onScroll(); });
	});
	sec.addEventListener('click', function (ev) {
		var t = ev.target.closest('a.jump');
		if (t) { ev.preventDefault(); self.jump(+t.getAttribute('data-insn'), true); }
	});
};

/* Branch decisions in runs (one decision repeated in a row counts once),
 * the first few and the last ones, nearest the error. */
Prog.prototype.buildDecisions = function (ui) {
	var d = this.d, runs = [], i;
	if (!d.path.length) return;
	for (i = 0; i < d.path.length; i += 2) {
		if (!d.path[i + 1]) continue;
		var last = runs[runs.length - 1];
		if (last && last[0] === d.path[i] && last[1] === d.path[i + 1]) last[2]++;
		else runs.push([d.path[i], d.path[i + 1], 1]);
	}
	var p = ui.appendChild(el('div', 'panel decisions'));
	p.appendChild(el('h3', '', 'Failing path: ' + d.path.length / 2 + ' instructions, ' +
		runs.length + ' branch decisions' + (d.pathTruncated ? ' (cut)' : '')));
	var ol = p.appendChild(el('ol'));
	var HEAD = 6, TAIL = 12;
	for (i = 0; i < runs.length; i++) {
		if (i === HEAD && runs.length > HEAD + TAIL) {
			ol.appendChild(el('li', 'note', '... ' + (runs.length - HEAD - TAIL) + ' more decisions ...'));
			i = runs.length - TAIL;
		}
		var li = ol.appendChild(el('li', 'decision'));
		li.appendChild(el('b', '', runs[i][1] === 1 ? 'taken ' : 'not taken '));
		li.appendChild(this.jumpLink(runs[i][0]));
		if (runs[i][2] > 1) li.appendChild(document.createTextNode(' (x' + runs[i][2] + ')'));
	}
};

Prog.prototype.buildSlice = function (ui) {
	var d = this.d;
	if (!d.slice.length) return;
	var p = ui.appendChild(el('div', 'panel'));
	p.appendChild(el('h3', '', 'Slice of the checked value'));
	var t = p.appendChild(el('table', 'slice'));
	var h = t.appendChild(el('tr'));
	['role', 'where', 'insn', 'instruction', 'value after it'].forEach(function (s) { h.appendChild(el('th', '', s)); });
	/* The items nearest the check matter most; a long slice keeps those. */
	var from = Math.max(0, d.slice.length - 40);
	if (from) p.appendChild(el('div', 'note', 'the last 40 of ' + d.slice.length + ' items'));
	for (var i = from; i < d.slice.length; i++) {
		var s = d.slice[i], r = t.appendChild(el('tr', 'slice-item'));
		r.appendChild(el('td', '', ROLES[s[1]]));
		r.appendChild(el('td', '', s[2]));
		r.appendChild(el('td')).appendChild(this.jumpLink(s[0], String(s[0])));
		r.appendChild(el('td', '', d.text[s[0]] || ''));
		r.appendChild(el('td', 'state', s[3]));
	}
};

Prog.prototype.buildControls = function (ui) {
	var self = this, c = ui.appendChild(el('div', 'controls'));
	var lab = c.appendChild(el('label', '', 'metric '));
	var sel = lab.appendChild(el('select', 'metric'));
	NAMES.forEach(function (nm, k) { var o = sel.appendChild(el('option', '', nm)); o.value = k; });
	sel.value = this.metric;
	sel.addEventListener('change', function () { self.metric = +sel.value; self.redraw(); });
	lab = c.appendChild(el('label', '', 'show '));
	var f = lab.appendChild(el('select', 'filter'));
	[['all', 'every instruction'], ['visited', 'visited ones'], ['path', 'the failing path'],
	 ['lines', 'source lines only']].forEach(function (o) {
		var e = f.appendChild(el('option', '', o[1]));
		e.value = o[0];
	});
	f.value = this.filter;
	f.addEventListener('change', function () { self.filter = f.value; self.setRows(); });
	this.filterSel = f;
	lab = c.appendChild(el('label', '', 'go to insn '));
	var go = lab.appendChild(el('input'));
	go.size = 7;
	go.addEventListener('change', function () { self.jump(parseInt(go.value, 10), true); });
	var lg = c.appendChild(el('span', 'legend'));
	lg.appendChild(el('span', '', '0'));
	var sc = lg.appendChild(el('span', 'scale'));
	sc.style.background = 'linear-gradient(to right,' + heat(1, 1e9) + ',' + heat(1e3, 1e6) + ',' + heat(1, 1) + ')';
	this.legendMax = lg.appendChild(el('span'));
	c.appendChild(el('span', 'note', 'log colour scale per column; grey lines are source lines with their totals'));
};

/* Rows are numbers: an instruction's index; -1 - i for the source line
 * that starts at instruction i; -1 - n - f for function f's header. */
Prog.prototype.funcRowBefore = function (i, rows, last) {
	var f = this.funcOf[i];
	if (f >= 0 && f !== last) rows.push(-1 - this.n - f);
	return f;
};

/* Each distinct source line once, at its first instruction, under its
 * function. */
Prog.prototype.lineRows = function () {
	var d = this.d, rows = [], seen = new Uint8Array(d.lines.length), fn = -1;
	for (var i = 0; i < this.n; i++) {
		var li = d.insnLine[i];
		if (li >= 0 && !seen[li]) {
			seen[li] = 1;
			fn = this.funcRowBefore(i, rows, fn);
			rows.push(-1 - i);
		}
	}
	return rows;
};

Prog.prototype.setRows = function () {
	var d = this.d, rows = [], prev = -2, fn = -1;
	for (var i = 0; i < this.n && this.filter !== 'lines'; i++) {
		if (d.text[i] === null) continue;
		if (this.filter === 'visited' && !d.stats[i * 5]) continue;
		if (this.filter === 'path' && !this.onPath[i]) continue;
		var f = this.funcRowBefore(i, rows, fn);
		if (f !== fn) prev = -2;
		fn = f;
		var li = d.insnLine[i];
		if (li !== prev && li >= 0) rows.push(-1 - i);
		prev = li;
		rows.push(i);
	}
	this.rows = this.filter === 'lines' ? this.lineRows() : rows;
	this.start = this.end = 0;
	this.redraw();
};

Prog.prototype.redraw = function () {
	var k = this.metric;
	this.legendMax.textContent = String(this.colMax[k]) + ' ' + NAMES[k] + ' (line total ' + this.lineMax[k] + ')';
	this.drawHead();
	this.drawHot();
	this.drawOverview();
	this.start = this.end = 0;
	this.onScroll(true);
};

Prog.prototype.drawHead = function () {
	var h = this.head, k;
	h.textContent = '';
	h.appendChild(el('span', 'idx', 'insn'));
	for (k = 0; k < 5; k++)
		h.appendChild(el('span', 'm' + (k === this.metric ? ' sel' : ''), ['visits', 'states', 'hits', 'misses', 'prec'][k]));
	h.appendChild(el('span', 'mark', 'marks'));
	h.appendChild(el('span', 'txt', 'instruction (; its state on the failing path)'));
};

Prog.prototype.drawHot = function () {
	var d = this.d, k = this.metric, idx = [], i, self = this;
	for (i = 0; i < d.lines.length; i++) if (this.lineSum[i * 5 + k]) idx.push(i);
	idx.sort(function (a, b) { return self.lineSum[b * 5 + k] - self.lineSum[a * 5 + k]; });
	var firstInsn = {};
	for (i = this.n - 1; i >= 0; i--) if (d.insnLine[i] >= 0) firstInsn[d.insnLine[i]] = i;
	this.hot.textContent = '';
	this.hot.appendChild(el('h3', '', 'Source lines by ' + NAMES[k]));
	if (!idx.length) { this.hot.appendChild(el('div', 'note', 'none')); return; }
	var ol = this.hot.appendChild(el('ol'));
	for (i = 0; i < idx.length && i < 10; i++) {
		var l = d.lines[idx[i]], li = ol.appendChild(el('li'));
		li.appendChild(el('b', '', this.lineSum[idx[i] * 5 + k] + ' '));
		li.appendChild(this.jumpLink(firstInsn[idx[i]], d.files[l[0]] + ':' + l[1] + ': ' + l[2]));
	}
};

Prog.prototype.drawOverview = function () {
	var cv = this.canvas, d = this.d, k = this.metric;
	var w = cv.width = Math.max(1, cv.clientWidth || 800), h = cv.height = 28;
	var g = cv.getContext('2d'), per = this.n / w;
	g.clearRect(0, 0, w, h);
	for (var x = 0; x < w; x++) {
		var a = Math.floor(x * per), b = Math.max(a + 1, Math.floor((x + 1) * per)), m = 0, p = 0;
		for (var i = a; i < b && i < this.n; i++) {
			if (d.stats[i * 5 + k] > m) m = d.stats[i * 5 + k];
			if (this.onPath[i]) p = 1;
		}
		if (m) { g.fillStyle = heat(m, this.colMax[k]); g.fillRect(x, 0, 1, 20); }
		if (p) { g.fillStyle = '#1a56b0'; g.fillRect(x, 21, 1, 7); }
	}
	g.fillStyle = '#4a5064';
	for (var f = 1; f < this.funcs.length; f++) g.fillRect(Math.floor(this.funcs[f][0] / per), 0, 1, h);
	if (d.error >= 0) { g.fillStyle = '#b3261e'; g.fillRect(Math.floor(d.error / per), 0, 2, h); }
};

Prog.prototype.onScroll = function (force) {
	var total = this.rows.length, s = 0, e = total;
	if (total > EAGER) {
		var first = Math.floor(this.listing.scrollTop / ROW_H) - 1;
		var seen = Math.ceil(this.listing.clientHeight / ROW_H) + 1;
		if (!force && first >= this.start && first + seen <= this.end) return;
		s = Math.max(0, first - MARGIN);
		e = Math.min(total, first + seen + MARGIN);
	}
	this.start = s;
	this.end = e;
	this.topPad.style.height = s * ROW_H + 'px';
	this.botPad.style.height = (total - e) * ROW_H + 'px';
	var frag = document.createDocumentFragment();
	for (var r = s; r < e; r++) frag.appendChild(this.row(this.rows[r]));
	this.box.textContent = '';
	this.box.appendChild(frag);
};

Prog.prototype.row = function (v) {
	if (v < -this.n) return this.funcRow(-1 - this.n - v);
	return v < 0 ? this.srcRow(-1 - v) : this.insnRow(v);
};

/* A function's header: its name, kind and range, and its totals. */
Prog.prototype.funcRow = function (f) {
	var fn = this.funcs[f], r = el('div', 'row func');
	r.setAttribute('data-func', fn[2]);
	r.appendChild(el('span', 'idx', String(fn[0])));
	for (var k = 0; k < 5; k++) {
		var v = this.funcSum[f * 5 + k], c = r.appendChild(el('span', 'm' + (v ? '' : ' zero') + (k === this.metric ? ' sel' : ''), String(v)));
		c.style.background = heat(v, this.funcMax[k]);
		if (heatT(v, this.funcMax[k]) > 0.75) c.style.color = '#fff';
	}
	r.appendChild(el('span', 'mark'));
	var kind = f ? (fn[3] ? 'global function' : 'static subprogram') : 'entry';
	r.appendChild(el('span', 'txt', fn[2] + ' (' + kind + ', insns ' + fn[0] + '-' + (fn[0] + fn[1] - 1) + ')'));
	r.title = fn[2] + ': ' + kind + (f && fn[3] ? ', verified on its own' : '') + ' (totals of its instructions)';
	return r;
};

Prog.prototype.srcRow = function (i) {
	var d = this.d, li = d.insnLine[i], l = d.lines[li], r = el('div', 'row src');
	r.setAttribute('data-line', l[1]);
	r.appendChild(el('span', 'idx'));
	for (var k = 0; k < 5; k++) {
		var v = this.lineSum[li * 5 + k], c = r.appendChild(el('span', 'm' + (v ? '' : ' zero') + (k === this.metric ? ' sel' : ''), String(v)));
		c.style.background = heat(v, this.lineMax[k]);
		if (heatT(v, this.lineMax[k]) > 0.75) c.style.color = '#fff';
	}
	r.appendChild(el('span', 'mark'));
	r.appendChild(el('span', 'txt', d.files[l[0]] + ':' + l[1] + ': ' + l[2]));
	r.title = d.files[l[0]] + ':' + l[1] + ' (totals of all its instructions)';
	return r;
};

Prog.prototype.insnRow = function (i) {
	var d = this.d, r = el('div', 'row insn'), k, marks = [], title = [];
	r.setAttribute('data-insn', i);
	r.id = this.sec.id + '-i' + i;
	r.appendChild(el('span', 'idx', String(i)));
	for (k = 0; k < 5; k++) {
		var v = d.stats[i * 5 + k], c = r.appendChild(el('span', 'm' + (v ? '' : ' zero') + (k === this.metric ? ' sel' : ''), String(v)));
		c.setAttribute('data-k', KEYS[k]);
		c.style.background = heat(v, this.colMax[k]);
		var t = heatT(v, this.colMax[k]);
		if (t > 0.75) c.style.color = '#fff';
	}
	if (this.onPath[i]) { r.className += ' path'; title.push('on the failing path x' + this.onPath[i]); }
	if (i === d.error) { r.className += ' err'; marks.push(['e', 'E']); title.push('the error'); }
	if (i === d.loss) { r.className += ' loss'; marks.push(['l', 'L']); title.push('knowledge lost here'); }
	if (i === d.root && d.root !== d.error && d.root !== d.loss) { marks.push(['r', 'R']); title.push('root cause'); }
	if (this.sliceOf[i]) { marks.push(['s', 'S']); title.push('slice: ' + this.sliceOf[i].join(', ')); }
	if (this.taken[i]) { marks.push(['t', 'T' + this.taken[i]]); title.push('taken x' + this.taken[i]); }
	if (this.notTaken[i]) { marks.push(['n', 'N' + this.notTaken[i]]); title.push('not taken x' + this.notTaken[i]); }
	var m = r.appendChild(el('span', 'mark'));
	marks.forEach(function (b) { m.appendChild(el('b', b[0], b[1])); });
	var txt = r.appendChild(el('span', 'txt', d.text[i]));
	if (this.stateOf[i]) txt.appendChild(el('span', 'state', ' ; ' + this.stateOf[i]));
	title.unshift(this.where(i));
	r.title = title.join('\n');
	return r;
};

Prog.prototype.jump = function (i, flash) {
	if (!(i >= 0 && i < this.n)) return;
	while (i > 0 && this.d.text[i] === null) i--;
	var pos = this.rows.indexOf(i);
	if (pos < 0) {
		this.filter = this.filterSel.value = 'all';
		this.setRows();
		pos = this.rows.indexOf(i);
	}
	this.listing.scrollTop = Math.max(0, (pos + 1) * ROW_H - this.listing.clientHeight / 3);
	this.onScroll(true);
	this.listing.scrollIntoView({ block: 'nearest' });
	var row = document.getElementById(this.sec.id + '-i' + i);
	if (row && flash) row.classList.add('flash');
};

/* The list of programs at the top, each with its verdict. */
function buildNav() {
	var nav = document.querySelector('nav');
	document.querySelectorAll('section.prog').forEach(function (sec) {
		var a = nav.appendChild(el('a', '', sec.getAttribute('data-prog') + ' '));
		a.href = '#' + sec.id;
		var v = sec.getAttribute('data-verdict');
		a.appendChild(el('span', 'verdict ' + v, v));
	});
}

var progs = {};
buildNav();
document.querySelectorAll('section.prog').forEach(function (sec) {
	if (!sec.querySelector('script.data')) return;
	try {
		progs[sec.id] = new Prog(sec);
	} catch (err) {
		sec.appendChild(el('pre', 'error', 'report script failed: ' + err));
	}
});
/* #p3-i120 opens program p3's listing at instruction 120. */
var want = /^#(p[0-9]+)-i([0-9]+)$/.exec(location.hash);
if (want && progs[want[1]]) progs[want[1]].jump(+want[2], true);
document.body.setAttribute('data-rendered', 'yes');
/* Milliseconds from the page's start to the end of the drawing. */
document.body.setAttribute('data-render-ms', String(Math.round(performance.now())));
})();
