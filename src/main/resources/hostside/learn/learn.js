// hostside learn: plays the steppers drawn in this page. Without this script every step is
// shown one under the other, its question and answer included; with it, one step at a time,
// the question before the step, back and forward by buttons, the arrow keys and the URL.
(function () {
  'use strict';
  document.documentElement.classList.add('js');
  var steppers = Array.prototype.slice.call(document.querySelectorAll('section.stepper'));
  var active = steppers[0] || null;

  function Player(section, first) {
    this.section = section;
    this.key = section.getAttribute('data-key');
    this.first = first;
    this.frames = Array.prototype.slice.call(section.querySelectorAll('li.frame'));
    this.revealed = {};
    this.at = 0;
    this.controls = section.querySelector('.controls');
    this.pos = section.querySelector('.pos');
    this.scrub = section.querySelector('input.scrub');
    this.live = section.querySelector('.live');
    var self = this;
    this.controls.hidden = false;
    this.scrub.max = String(this.frames.length);
    section.querySelector('button.prev').addEventListener('click', function () { self.back(); });
    section.querySelector('button.next').addEventListener('click', function () { self.forward(); });
    this.scrub.addEventListener('input', function () { self.go(parseInt(self.scrub.value, 10) - 1, true); });
    section.addEventListener('focusin', function () { active = self; });
    section.addEventListener('click', function () { active = self; });
    this.frames.forEach(function (f, i) {
      var p = f.querySelector('.predict');
      if (!p) return;
      var answer = parseInt(p.getAttribute('data-answer'), 10);
      Array.prototype.forEach.call(p.querySelectorAll('button.choice'), function (b) {
        b.addEventListener('click', function () { self.choose(i, parseInt(b.getAttribute('data-i'), 10), answer); });
      });
      p.querySelector('button.show').addEventListener('click', function () { self.reveal(i); });
    });
  }
  Player.prototype.asking = function (i) {
    return !!this.frames[i].querySelector('.predict') && !this.revealed[i];
  };
  Player.prototype.go = function (i, write) {
    if (i < 0 || i >= this.frames.length) return;
    this.at = i;
    var self = this;
    this.frames.forEach(function (f, j) {
      f.classList.toggle('current', j === i);
      f.classList.toggle('asking', j === i && self.asking(j));
    });
    this.pos.textContent = 'Step ' + (i + 1) + ' of ' + this.frames.length;
    this.scrub.value = String(i + 1);
    this.say();
    if (write) {
      var hash = this.first ? '#step=' + (i + 1) : '#' + this.key + ':step=' + (i + 1);
      if (window.location.hash !== hash) history.replaceState(null, '', hash);
    }
  };
  Player.prototype.say = function () {
    var f = this.frames[this.at];
    var head = 'Step ' + (this.at + 1) + ' of ' + this.frames.length + ': ';
    this.live.textContent = this.asking(this.at) ? head + f.querySelector('.predict .q').textContent
        : head + f.querySelector('h3 .t').textContent + '. ' + f.querySelector('.caption').textContent;
  };
  Player.prototype.forward = function () {
    // on a question not yet answered, Next shows the step rather than skipping it
    if (this.asking(this.at)) { this.reveal(this.at); return; }
    this.go(this.at + 1, true);
  };
  Player.prototype.back = function () { this.go(this.at - 1, true); };
  Player.prototype.reveal = function (i) {
    this.revealed[i] = true;
    this.frames[i].classList.remove('asking');
    var why = this.frames[i].querySelector('.predict .why-live');
    if (why) why.hidden = false;
    if (i === this.at) this.say();
  };
  Player.prototype.choose = function (i, picked, answer) {
    var p = this.frames[i].querySelector('.predict');
    Array.prototype.forEach.call(p.querySelectorAll('button.choice'), function (b) {
      var k = parseInt(b.getAttribute('data-i'), 10);
      b.classList.toggle('right', k === answer);
      b.classList.toggle('wrong', k === picked && k !== answer);
      b.setAttribute('aria-pressed', String(k === picked));
    });
    p.querySelector('.verdict').textContent = picked === answer ? 'Right.' : 'Not quite: the answer is "' + p.querySelectorAll('button.choice')[answer].textContent + '".';
    this.reveal(i);
  };

  var players = steppers.map(function (s, i) { return new Player(s, i === 0); });
  function byKey(key) {
    for (var i = 0; i < players.length; i++) if (players[i].key === key) return players[i];
    return null;
  }
  function fromHash() {
    var h = window.location.hash.replace(/^#/, '');
    var m = /^(?:([a-z0-9-]+):)?step=(\d+)$/.exec(h);
    if (!m) return false;
    var p = m[1] ? byKey(m[1]) : players[0];
    if (!p) return false;
    p.go(parseInt(m[2], 10) - 1, false);
    active = p;
    if (p.section.scrollIntoView) p.section.scrollIntoView();
    return true;
  }
  players.forEach(function (p) { p.go(0, false); });
  if (players.length) active = players[0];
  fromHash();
  window.addEventListener('hashchange', fromHash);
  document.addEventListener('keydown', function (e) {
    var t = e.target && e.target.tagName;
    if (t === 'TEXTAREA' || t === 'INPUT' || e.altKey || e.ctrlKey || e.metaKey) return;
    if (!active || !active.go) return;
    if (e.key === 'ArrowRight' || e.key === 'j') { active.forward(); e.preventDefault(); }
    else if (e.key === 'ArrowLeft' || e.key === 'k') { active.back(); e.preventDefault(); }
  });

  // the self-check: an answer is shown once the reader has written one
  Array.prototype.forEach.call(document.querySelectorAll('.check li.question'), function (q) {
    var box = q.querySelector('textarea'), button = q.querySelector('button.reveal-answer'), answer = q.querySelector('.answer');
    button.disabled = true;
    box.addEventListener('input', function () { button.disabled = box.value.trim().length === 0; });
    button.addEventListener('click', function () { answer.classList.add('shown'); answer.focus(); });
  });
})();
