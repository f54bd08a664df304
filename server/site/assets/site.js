/*
 * The landing page's request form, enhanced: without JavaScript it is a plain form post (the
 * server answers with a page). With it, the form posts JSON, shows the confirmation in place,
 * and shows the server's refusal next to the field it names (`Field "email" must be …`), in the
 * page's language (the messages are in the page, on each field's error element).
 */
(function () {
  'use strict';
  var form = document.querySelector('[data-request-form]');
  if (!form || !window.fetch || !window.FormData) return;
  var status = form.querySelector('[data-form-status]');
  var button = form.querySelector('button[type="submit"]');

  function clearErrors() {
    var errors = form.querySelectorAll('[data-error-for]');
    for (var i = 0; i < errors.length; i++) {
      var control = form.elements.namedItem(errors[i].getAttribute('data-error-for'));
      errors[i].hidden = true;
      errors[i].textContent = '';
      if (control) {
        control.removeAttribute('aria-invalid');
        control.removeAttribute('aria-describedby');
      }
    }
    status.textContent = '';
  }

  function showFieldError(name) {
    var error = form.querySelector('[data-error-for="' + name + '"]');
    var control = form.elements.namedItem(name);
    if (!error || !control) return false;
    error.textContent = error.getAttribute('data-message');
    error.hidden = false;
    control.setAttribute('aria-invalid', 'true');
    control.setAttribute('aria-describedby', error.id);
    control.focus();
    return true;
  }

  function confirm() {
    var done = document.createElement('p');
    done.className = 'form__done';
    done.setAttribute('role', 'status');
    done.tabIndex = -1;
    done.textContent = form.getAttribute('data-thanks');
    form.replaceWith(done);
    done.focus();
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    clearErrors();
    var fields = {};
    new FormData(form).forEach(function (value, name) {
      if (name !== 'lang') fields[name] = value;
    });
    button.disabled = true;
    status.textContent = form.getAttribute('data-sending');
    window
      .fetch(form.action, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(fields),
      })
      .then(function (response) {
        return response.json().then(
          function (body) {
            return { status: response.status, body: body };
          },
          function () {
            return { status: response.status, body: null };
          },
        );
      })
      .then(function (answer) {
        if (answer.status === 201) return confirm();
        var message = (answer.body && answer.body.message) || '';
        var named = /^Field "(\w+)"/.exec(message);
        if (answer.status === 400 && named && showFieldError(named[1])) return (status.textContent = '');
        status.textContent = form.getAttribute(answer.status === 429 ? 'data-too-many' : 'data-failed');
      })
      .catch(function () {
        status.textContent = form.getAttribute('data-failed');
      })
      .then(function () {
        button.disabled = false;
      });
  });
})();
