import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The README and docs/ link to each other by relative path and `#anchor`; a moved or renamed heading breaks a link
 * silently on GitHub, so every link is checked here. http(s) links are allowed and never fetched (tests stay offline).
 */

/** A Markdown file's text with fenced code blocks blanked (their `[x](y)` and `# lines` are not links or headings). */
function withoutCode(text: string): string {
  let fenced = false;
  return text
    .split("\n")
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return "";
      }
      // Inline code spans are not links either.
      return fenced ? "" : line.replace(/`[^`]*`/g, (code) => " ".repeat(code.length));
    })
    .join("\n");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, … */
function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m?.[1]) continue;
    const text = m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n === 0 ? base : `${base}-${n}`);
  }
  return slugs;
}

/** Every link target in a Markdown text: inline `[x](target)`, images, and reference definitions `[x]: target`. */
function linkTargets(markdown: string): string[] {
  const text = withoutCode(markdown);
  const targets: string[] = [];
  for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) if (m[1]) targets.push(m[1]);
  for (const m of text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) if (m[1]) targets.push(m[1]);
  return targets;
}

/**
 * Problems with the links of `files` (paths relative to `root`, each with its text): a missing file, an anchor no
 * heading has, a path out of the repository or into the internal `shared` folder, a docs page the README never links.
 */
function linkProblems(root: string, files: Map<string, string>): string[] {
  const problems: string[] = [];
  const slugsOf = (path: string): Set<string> | undefined => {
    const text = files.get(path) ?? (existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : undefined);
    return text === undefined ? undefined : headingSlugs(text);
  };
  const linkedFromReadme = new Set<string>();
  for (const [file, text] of files) {
    if (text.includes("../shared")) problems.push(`${file}: mentions ../shared, which is internal and never shipped`);
    for (const target of linkTargets(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
        if (!/^(https?|mailto):/i.test(target)) problems.push(`${file}: ${target}: only http(s) and mailto addresses`);
        continue;
      }
      const hash = target.indexOf("#");
      const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
      const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const resolved = pathPart === "" ? file : normalize(join(dirname(file), pathPart)).replace(/\/$/, "");
      if (resolved.startsWith("..") || resolved.split("/").includes("shared")) {
        problems.push(`${file}: ${target}: points outside what is shipped`);
        continue;
      }
      const exists = files.has(resolved) || existsSync(join(root, resolved));
      if (!exists) {
        problems.push(`${file}: ${target}: ${resolved} does not exist`);
        continue;
      }
      if (file === "README.md") linkedFromReadme.add(resolved);
      if (anchor === undefined) continue;
      const isMarkdown =
        resolved.endsWith(".md") && !statSync(join(root, resolved), { throwIfNoEntry: false })?.isDirectory();
      if (!isMarkdown) continue;
      if (!slugsOf(resolved)?.has(anchor))
        problems.push(`${file}: ${target}: no heading in ${resolved} has #${anchor}`);
    }
  }
  for (const file of files.keys()) {
    if (file.startsWith("docs/") && !linkedFromReadme.has(file)) problems.push(`README.md does not link ${file}`);
  }
  return problems;
}

function readDocs(root: string): Map<string, string> {
  const files = new Map<string, string>([["README.md", readFileSync(join(root, "README.md"), "utf8")]]);
  for (const name of readdirSync(join(root, "docs")).sort()) {
    if (name.endsWith(".md")) files.set(`docs/${name}`, readFileSync(join(root, "docs", name), "utf8"));
  }
  return files;
}

const root = process.cwd();

describe("README and docs/ links", () => {
  it("all resolve: files exist, anchors match headings, every docs page is linked from the README", () => {
    const files = readDocs(root);
    expect(files.size).toBeGreaterThan(8);
    expect(linkProblems(root, files)).toEqual([]);
  });

  it("keeps the README short enough to read in five minutes", () => {
    expect(readFileSync(join(root, "README.md"), "utf8").split("\n").length).toBeLessThanOrEqual(200);
  });

  it("slugs headings as GitHub does", () => {
    const slugs = headingSlugs(
      "# Upbeat\n## One workspace without OAuth (CHAT_BOT_TOKEN)\n## Slack deliveries: what is guaranteed\n" +
        "## E-mail\n## E-mail\n```sh\n# not a heading\n```\n## `npm run` scripts\n",
    );
    expect([...slugs]).toEqual([
      "upbeat",
      "one-workspace-without-oauth-chat_bot_token",
      "slack-deliveries-what-is-guaranteed",
      "e-mail",
      "e-mail-1",
      "npm-run-scripts",
    ]);
  });

  it("reports a broken file link, a wrong anchor, ../shared, an unlinked page and a link out of the repository", () => {
    const files = readDocs(root);
    files.set(
      "README.md",
      `${files.get("README.md")}\nSee [gone](docs/gone.md) and [bad](docs/api.md#no-such-heading).\n`,
    );
    files.set("docs/extra.md", "# Extra\n\n[same file](#nowhere), [shared](../../shared/spec.md), [up](../../x.md)\n");
    const problems = linkProblems(root, files);
    expect(problems).toEqual([
      "README.md: docs/gone.md: docs/gone.md does not exist",
      "README.md: docs/api.md#no-such-heading: no heading in docs/api.md has #no-such-heading",
      "docs/extra.md: mentions ../shared, which is internal and never shipped",
      "docs/extra.md: #nowhere: no heading in docs/extra.md has #nowhere",
      "docs/extra.md: ../../shared/spec.md: points outside what is shipped",
      "docs/extra.md: ../../x.md: points outside what is shipped",
      "README.md does not link docs/extra.md",
    ]);
  });

  it("ignores links inside code, and accepts http(s) addresses without fetching them", () => {
    expect(
      linkTargets("`[a](nope.md)`\n```\n[b](nope.md)\n```\n[c](https://example.com/x)\n[d]: ./README.md\n"),
    ).toEqual(["https://example.com/x", "./README.md"]);
    const files = new Map([["README.md", "[c](https://example.invalid/x) [d](README.md#upbeat)\n# Upbeat\n"]]);
    expect(linkProblems(root, files)).toEqual([]);
  });
});
