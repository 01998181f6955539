/**
 * An overloaded operator's name in one spelling, whatever the source's spacing, so that
 * `sym:` finds it as typed (`operator ==` and `operator==` in C++ and C# are one name): a
 * token operator is glued to its keyword (`operator+`, `operator()`, `operator[]`,
 * `operator""_km`), a word after it takes one space (`operator new[]`, `operator bool`,
 * `operator const char*`).
 */
export function operatorName(spelled: string): string {
  const rest = spelled
    .replace(/^operator/, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([*&()[\]<>,])\s*/g, '$1')
    .trim();
  return /^[A-Za-z_]/.test(rest) ? `operator ${rest}` : `operator${rest.replace(/ /g, '')}`;
}
