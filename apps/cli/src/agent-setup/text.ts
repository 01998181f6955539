// The instructions agent-setup writes: one body, as a Claude Code skill (SKILL.md with
// YAML front matter) or as a marked AGENTS.md section. Every example runs as written on
// this repository (docs/agents.md); keep the text short, it is read on every session.

export const SKILL_NAME = 'trufflepig';

export const SECTION_BEGIN = '<!-- trufflepig:begin -->';
export const SECTION_END = '<!-- trufflepig:end -->';

/** The body under a heading of level `h` (`##` in the skill, `###` inside AGENTS.md). */
export function instructionsBody(h: string): string {
  return `Trufflepig has indexed this repository: ranked, file-first hits within a token budget, with handles to read back. Prefer it to \`grep -r\`, \`rg\`, \`git grep\`, \`find\` and \`fd\` for finding code.

${h} Verbs
- \`trufflepig search QUERY\`: start here; a hit is \`HANDLE  PATH:START-END  [NAME]\` and its evidence lines.
- \`trufflepig show HANDLE\`: the hit's lines, checked against the file (\`show path:README.md:1-40\`: any range).
- \`trufflepig more CURSOR\`: the next page (the cursor after \`next:\`).
- \`trufflepig show sym:NAME\`: a definition, with its other definitions, imports and uses.
- \`trufflepig refs NAME\`: every site of a name.
- \`trufflepig map PATH\`: a file's outline, or the files under a directory.
- \`trufflepig ctx HANDLE\`: a hit's container, siblings, callers and callees.
- \`trufflepig hist|blame TARGET\`, \`since|diff REV\`: history (TARGET: a handle, \`sym:NAME\`, \`path:P\`).
- \`trufflepig status\`: the index's generation and coverage.

${h} Query language
Every word after the verb is the query; filters combine with any form.
- free text: \`trufflepig search refill tokens\`
- literal (smart case): \`trufflepig search '"refill tokens"'\`
- symbol (exact): \`trufflepig search sym:TokenBucket\`, a member: \`sym:TokenBucket::refill_tokens\`
- regex (RE2, one line): \`trufflepig search 're:fn\\s+refill_\\w+'\`
- paths: \`trufflepig search refill file:src/ -file:tests/\`
- language, kind: \`trufflepig search sym:TokenBucket lang:rust kind:struct\`
- origin: \`trufflepig search refill source:code\` (or test, docs, config, git-log)
- workspaces: \`in:MEMBER\` one member, \`ws:all\` every member

${h} Handles, pages, budgets
Handles (\`k3v9qa:2\`) and cursors (\`k3v9qa@20\`) last ten minutes; \`stale_source\`: the file changed, search again. Output stops at \`-b N\` tokens (default 600, \`show\` 1200) or \`-n N\` files; \`-C N\` adds context lines. \`index_warming\`: retry shortly.

${h} Coverage
Each page ends with \`coverage:\` \`complete\`, \`partial\` (files unsearched) or \`stale\` (the last reindex failed: recent edits missing). \`excluded\` files (binary, too large, symlinks) and gitignored or untracked ones (\`node_modules/\`, build output) are not indexed (\`status\` counts them); Git-tracked vendored files are.

${h} When grep is still right
Files the index leaves out (gitignored, untracked \`node_modules/\`, binaries); one file you know (\`grep -n x path\`); filtering piped output; exact counts or every match; multi-line patterns.
`;
}

/** `.claude/skills/trufflepig/SKILL.md`: the description says when Claude should load it. */
export function skillText(): string {
  return `---
name: ${SKILL_NAME}
description: Find code in this repository with the trufflepig CLI (ranked, token-budgeted search with handles, definitions, references, outlines). Use it instead of grep -r, rg, git grep, find -name or fd to find where something is defined, used or implemented.
---

# Trufflepig code search

${instructionsBody('##')}`;
}

/** The AGENTS.md section, markers included; agent-setup replaces what lies between them on every run. */
export function agentsSectionText(): string {
  return `${SECTION_BEGIN}
<!-- Written by trufflepig agent-setup; it replaces this section when run again. -->
## Code search: Trufflepig

${instructionsBody('###')}${SECTION_END}
`;
}
