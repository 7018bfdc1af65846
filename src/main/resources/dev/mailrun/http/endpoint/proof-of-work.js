(function () {
  'use strict';
  // Solves the sign-up form's proof-of-work challenge (ALTCHA's format): finds the number n for which
  // SHA-256(salt + n) is the challenge, and puts the solution in the form's altcha field. Sent inline,
  // allowed by its hash; the page needs nothing else.
  var field = document.getElementById('altcha');
  var status = document.getElementById('altcha-status');
  if (!field || !status || !window.crypto || !window.crypto.subtle || !window.TextEncoder) {
    if (status) { status.textContent = status.getAttribute('data-failed'); }
    return;
  }
  var button = field.form.querySelector('button[type=submit]');
  var c = JSON.parse(field.getAttribute('data-challenge'));
  var encoder = new TextEncoder();
  function hex(buffer) {
    var bytes = new Uint8Array(buffer);
    var out = '';
    for (var i = 0; i < bytes.length; i++) {
      out += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
    }
    return out;
  }
  // Digests in batches: the page stays responsive between them.
  function solve(from) {
    var batch = [];
    for (var n = from; n < from + 1000 && n <= c.maxnumber; n++) {
      batch.push(window.crypto.subtle.digest('SHA-256', encoder.encode(c.salt + n)));
    }
    return Promise.all(batch).then(function (hashes) {
      for (var k = 0; k < hashes.length; k++) {
        if (hex(hashes[k]) === c.challenge) {
          return from + k;
        }
      }
      return from + hashes.length > c.maxnumber ? -1 : solve(from + hashes.length);
    });
  }
  function done(number) {
    if (number >= 0) {
      field.value = btoa(JSON.stringify({algorithm: c.algorithm, challenge: c.challenge, number: number,
        salt: c.salt, signature: c.signature}));
      status.textContent = status.getAttribute('data-done');
    } else {
      status.textContent = status.getAttribute('data-failed');
    }
    if (button) { button.disabled = false; }
  }
  if (button) { button.disabled = true; }
  solve(0).then(done, function () { done(-1); });
})();
