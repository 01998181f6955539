'use strict';
// o200k_base token counts with js-tiktoken, the same oracle the CLI's budget tests use
// (the repository's own dependency; the constructor costs ~0.5 s, paid once).
const { Tiktoken } = require('js-tiktoken/lite');

let encoder;

/** Tokens of a whole response as an agent receives it; special-token strings are plain text. */
function countTokens(text) {
  encoder ||= new Tiktoken(require('js-tiktoken/ranks/o200k_base'));
  return encoder.encode(text || '', [], []).length;
}

module.exports = { countTokens };
