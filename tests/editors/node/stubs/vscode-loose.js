'use strict';
// The `vscode` stub, made permissive for loading the real
// vscode-languageclient library: any name the stub lacks is a dummy class
// (whose own properties are dummy classes), enough for the library's
// module-level code (`class X extends vscode.CompletionItem`, enum lookups).
const base = require('./vscode');

function dummy() {
  const C = class {};
  return new Proxy(C, {
    get(target, prop) {
      if (prop in target) return target[prop];
      return dummy();
    },
  });
}

module.exports = new Proxy(base, {
  get(target, prop) {
    return prop in target ? target[prop] : dummy();
  },
});
