/*
 * The copy buttons of the landing page's code blocks. The buttons are in the page but hidden:
 * without JavaScript there is nothing they could do, and the code is selected by hand. The
 * Clipboard API exists only in a secure context (HTTPS or localhost) and may be refused, so when
 * it is missing or says no, the code is selected and the older copy command is tried; when that
 * fails too, the code stays selected and the page asks for Ctrl+C.
 */
(function () {
  'use strict';
  /** How long "Copied" shows before the button reads "Copy" again. */
  var DONE_MS = 2000;

  function select(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  /** The pre-Clipboard-API way: copies the selection, and says whether it did. */
  function copySelected(element) {
    select(element);
    try {
      return document.execCommand('copy') === true;
    } catch (error) {
      // Some browsers throw rather than answer false; either way the reader is asked for Ctrl+C.
      return false;
    }
  }

  function setUp(button) {
    var id = button.getAttribute('data-copy');
    var code = document.getElementById(id);
    var status = document.querySelector('[data-copy-status="' + id + '"]');
    var label = button.querySelector('[data-copy-label]');
    if (!code || !status || !label) return;
    var idle = label.textContent;
    var timer = 0;

    function reset() {
      label.textContent = idle;
      status.textContent = '';
      button.removeAttribute('data-state');
    }

    function copied() {
      window.clearTimeout(timer);
      label.textContent = button.getAttribute('data-done');
      // Announced by the status region; the button's own label shows it.
      status.classList.add('visually-hidden');
      status.textContent = button.getAttribute('data-done');
      button.setAttribute('data-state', 'done');
      timer = window.setTimeout(reset, DONE_MS);
    }

    function byHand() {
      window.clearTimeout(timer);
      label.textContent = idle;
      button.setAttribute('data-state', 'manual');
      status.classList.remove('visually-hidden');
      status.textContent = button.getAttribute('data-manual');
    }

    function fallBack() {
      if (copySelected(code)) copied();
      else byHand();
    }

    button.addEventListener('click', function () {
      var clipboard = navigator.clipboard;
      if (!clipboard || typeof clipboard.writeText !== 'function') return fallBack();
      clipboard.writeText(code.textContent).then(copied, fallBack);
    });
    button.hidden = false;
  }

  var buttons = document.querySelectorAll('button[data-copy]');
  for (var i = 0; i < buttons.length; i++) setUp(buttons[i]);
})();
