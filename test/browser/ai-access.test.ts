import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { and, eq, isNull } from "drizzle-orm";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { mcpKeys, oauthGrants } from "../../src/db/schema.ts";
import { APP_URL } from "../support/app.ts";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { NARROW, WIDE } from "../support/nav-entries.ts";
import { seedGrant, seedOAuthClient } from "../support/oauth-grants.ts";
import { axeFindings, sidewaysScroll } from "../support/page-checks.ts";

const TEAM = "T0AIWEB";
const ADMIN = "U0AIWADMIN";
const MAYA = "U0AIWMAYA";
const LEO = "U0AIWLEO";
const CLAUDE = "mcpc_claudeAiWeb000000";
const GPT = "https://chatgpt.example/oauth/upbeat-client.json";
const SHOTS = join(OUTPUT, "ai-access");

const rowOf = (page: Page, text: string) => page.getByRole("row").filter({ hasText: text });
const clientsPanel = (page: Page) =>
  page.locator("section", { has: page.getByRole("heading", { name: "Connected AI clients" }) });

describe.runIf(hasChromium)("AI access: connected clients, revoke, key scopes", () => {
  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "AI Rockets", installer: ADMIN });
      await t.addMember(TEAM, ADMIN, { role: "admin", realName: "Ada Admin" });
      await t.addMember(TEAM, MAYA, { realName: "Maya Okafor" });
      await t.addMember(TEAM, LEO, { realName: "Leo Fernández" });
      const now = t.clock.now().getTime();
      const ago = (ms: number) => new Date(now - ms);
      await seedOAuthClient(
        t.deps.db,
        {
          clientId: CLAUDE,
          name: "Claude",
          redirectUris: ["https://claude.ai/api/mcp/auth_callback"],
          clientUri: "https://claude.ai",
        },
        ago(86_400_000 * 30),
      );
      await seedOAuthClient(
        t.deps.db,
        { clientId: GPT, name: "ChatGPT", redirectUris: ["https://chatgpt.example/connector_platform_oauth_redirect"] },
        ago(86_400_000 * 30),
      );
    },
    watch: { console: true },
  });

  /** Every test starts from the same four live grants (earlier tests' grants revoked first). */
  async function freshGrants() {
    const db = web.t.deps.db;
    const now = web.t.clock.now();
    await db
      .update(oauthGrants)
      .set({ revokedAt: now })
      .where(and(eq(oauthGrants.teamId, TEAM), isNull(oauthGrants.revokedAt)));
    const ago = (ms: number) => new Date(now.getTime() - ms);
    return {
      mayaClaude: await seedGrant(db, {
        teamId: TEAM,
        userId: MAYA,
        clientId: CLAUDE,
        scopes: ["standups:read", "standups:write"],
        createdAt: ago(3 * 86_400_000),
        lastUsedAt: ago(2 * 3_600_000),
      }),
      mayaGpt: await seedGrant(db, { teamId: TEAM, userId: MAYA, clientId: GPT, createdAt: ago(9 * 86_400_000) }),
      leoGpt: await seedGrant(db, {
        teamId: TEAM,
        userId: LEO,
        clientId: GPT,
        createdAt: ago(86_400_000),
        lastUsedAt: ago(10 * 60_000),
      }),
      adminClaude: await seedGrant(db, {
        teamId: TEAM,
        userId: ADMIN,
        clientId: CLAUDE,
        createdAt: ago(2 * 86_400_000),
      }),
    };
  }

  const connectBox = (page: Page) =>
    page.locator("section", { has: page.getByRole("heading", { name: "Connect an assistant" }) });
  const configPanel = (page: Page) =>
    page.locator("section", { has: page.getByRole("heading", { name: "Client configuration with a key" }) });
  const pickClient = (section: Locator, label: string) =>
    section.locator("label.segment", { hasText: new RegExp(`^${label}$`) }).click();
  const snippetIn = async (section: Locator) => (await section.locator(".client-steps pre").textContent()) ?? "";

  const revokedAt = async (id: number) =>
    (await web.t.deps.db.select().from(oauthGrants).where(eq(oauthGrants.id, id)))[0]?.revokedAt ?? null;

  async function revokeRow(page: Page, rowText: string, client: string) {
    await rowOf(page, rowText)
      .getByRole("button", { name: `Revoke ${client}` })
      .click();
    const dialog = page.getByRole("dialog");
    // The confirmation names the client being cut off.
    expect(await dialog.getByRole("heading").textContent()).toBe(`Revoke ${client}?`);
    await dialog.getByRole("button", { name: "Revoke access" }).click();
    await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
  }

  for (const [size, viewport] of [
    ["1280", WIDE],
    ["390", NARROW],
  ] as const) {
    it(`as an admin at ${size} px: every grant of the workspace, named; revoking one of Maya's takes it away`, async () => {
      mkdirSync(SHOTS, { recursive: true });
      const ids = await freshGrants();
      const page = await web.newPage();
      await page.setViewportSize(viewport);
      await web.signIn(TEAM, ADMIN, "/dashboard/ai-access", { page });
      const panel = clientsPanel(page);
      // A header row and the workspace's four grants.
      await expect.poll(() => panel.getByRole("row").count(), { timeout: 10_000 }).toBe(5);
      const text = await panel.textContent();
      for (const expected of [
        "Claude",
        "ChatGPT",
        "claude.ai",
        "chatgpt.example",
        "Maya Okafor",
        "Leo Fernández",
        "You",
      ])
        expect(text).toContain(expected);
      expect(text).toContain("Read and write");
      expect(text).toContain("Read only");
      if (size === "1280") {
        expect(text).toMatch(/3 days ago/);
        expect(text).toMatch(/2 hours ago/);
      }
      // The connect box: the OAuth address and the key path (the box fills in once /mcp-config answers, which may
      // be after the grants).
      const connect = page.locator("section", { has: page.getByRole("heading", { name: "Connect an assistant" }) });
      await expect.poll(() => connect.textContent()).toContain("http://localhost:3000/mcp");
      expect(await connect.textContent()).toContain("http://localhost:3000/mcp/key");
      expect(await page.getByRole("heading", { name: "API keys" }).count()).toBe(1);
      expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(SHOTS, `admin-${size}.png`), fullPage: true });

      await panel
        .getByRole("row")
        .filter({ hasText: "Maya Okafor" })
        .filter({ hasText: "ChatGPT" })
        .getByRole("button", { name: "Revoke ChatGPT" })
        .click();
      expect(await page.getByRole("dialog").getByRole("heading").textContent()).toBe("Revoke ChatGPT?");
      expect(await page.getByRole("dialog").textContent()).toContain("connected by Maya Okafor");
      await page.screenshot({ path: join(SHOTS, `admin-confirm-${size}.png`) });
      await page.getByRole("dialog").getByRole("button", { name: "Revoke access" }).click();
      await expect.poll(() => panel.getByRole("row").count()).toBe(4);
      await expect.poll(() => page.getByText("Revoked ChatGPT. It has no access any more.").count()).toBe(1);
      expect(
        await panel.getByRole("row").filter({ hasText: "Maya Okafor" }).filter({ hasText: "ChatGPT" }).count(),
      ).toBe(0);
      expect(await revokedAt(ids.mayaGpt)).not.toBeNull();
      for (const other of [ids.mayaClaude, ids.leoGpt, ids.adminClaude]) expect(await revokedAt(other)).toBeNull();
      expect(await axeFindings(page)).toEqual([]);
      await page.close();
      expect(web.problems).toEqual([]);
    });

    it(`as a member at ${size} px: only her own clients, no keys; she revokes her Claude`, async () => {
      const ids = await freshGrants();
      const page = await web.newPage();
      await page.setViewportSize(viewport);
      await web.signIn(TEAM, MAYA, undefined, { page });
      // AI access is in a member's navigation now.
      if (viewport === NARROW) await page.getByRole("button", { name: "Menu" }).click();
      await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "AI access" }).click();
      await page.waitForURL(`${web.base}/dashboard/ai-access`);
      const panel = clientsPanel(page);
      // A header row and her two grants.
      await expect.poll(() => panel.getByRole("row").count(), { timeout: 10_000 }).toBe(3);
      const text = await panel.textContent();
      expect(text).toContain("Claude");
      expect(text).toContain("ChatGPT");
      expect(text).not.toContain("Leo Fernández");
      expect(text).not.toContain("Ada Admin");
      expect(text).not.toContain("Connected by");
      expect(await page.getByRole("heading", { name: "API keys" }).count()).toBe(0);
      expect(await page.getByRole("button", { name: "Create key" }).count()).toBe(0);
      // She connects every client by signing in as herself; keys are an admin's, and would act as the admin.
      const connect = connectBox(page);
      expect(await connect.textContent()).toContain("signs in as you");
      expect(await connect.textContent()).toContain("a read-and-write key acts as that admin");
      expect(await connect.textContent()).not.toContain("need");
      await pickClient(connect, "Cursor");
      expect(JSON.parse(await snippetIn(connect))).toEqual({ mcpServers: { upbeat: { url: `${APP_URL}/mcp` } } });
      expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(SHOTS, `member-${size}.png`), fullPage: true });

      await revokeRow(page, "claude.ai", "Claude");
      await expect.poll(() => panel.getByRole("row").count()).toBe(2);
      expect(await panel.textContent()).not.toContain("claude.ai");
      expect(await revokedAt(ids.mayaClaude)).not.toBeNull();
      expect(await revokedAt(ids.mayaGpt)).toBeNull();
      expect(await revokedAt(ids.leoGpt)).toBeNull();
      expect(await revokedAt(ids.adminClaude)).toBeNull();
      // Her last one: the empty list says none is active, not that nobody ever connected.
      await revokeRow(page, "chatgpt.example", "ChatGPT");
      await expect.poll(() => panel.getByText("No assistant is connected.").count()).toBe(1);
      expect(await panel.textContent()).not.toContain("yet");
      expect(await axeFindings(page)).toEqual([]);
      await page.close();
      expect(web.problems).toEqual([]);
    });
  }

  it("an admin creates a read-and-write key: the list says so, and the key holds standups:write", async () => {
    for (const [size, viewport] of [
      ["1280", WIDE],
      ["390", NARROW],
    ] as const) {
      const page = await web.newPage();
      await page.setViewportSize(viewport);
      await web.signIn(TEAM, ADMIN, "/dashboard/ai-access", { page });
      const name = `Cursor ${size}`;
      await page.getByLabel("Name (optional)").fill(name);
      // Read only is the default.
      expect(await page.getByLabel("Read only").isChecked()).toBe(true);
      await page.getByLabel("Read and write (acts as you)").check();
      await page.screenshot({ path: join(SHOTS, `key-form-${size}.png`), fullPage: true });
      await page.getByRole("button", { name: "Create key" }).click();
      await expect.poll(() => page.getByText(/svc_[0-9A-Za-z]{30,}/).count(), { timeout: 10_000 }).toBeGreaterThan(0);
      expect(await page.locator("#new-key-title").locator("..").textContent()).toContain("Read and write");
      await page.getByRole("button", { name: "I have copied it" }).click();
      const keyRow = page.getByRole("row").filter({ hasText: name });
      await expect.poll(() => keyRow.count()).toBe(1);
      expect(await keyRow.textContent()).toContain("Read and write");
      const [stored] = await web.t.deps.db.select().from(mcpKeys).where(eq(mcpKeys.name, name));
      expect(stored?.scopes).toEqual(["standups:read", "standups:write"]);
      expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(SHOTS, `key-created-${size}.png`), fullPage: true });
      await page.close();
    }
    expect(web.problems).toEqual([]);
  });
  it("an admin sees how every client signs in, and key snippets that match the README and never put the key in a project file", async () => {
    for (const [size, viewport] of [
      ["1280", WIDE],
      ["390", NARROW],
    ] as const) {
      const page = await web.newPage();
      await page.setViewportSize(viewport);
      await web.signIn(TEAM, ADMIN, "/dashboard/ai-access", { page });
      const connect = connectBox(page);
      await expect.poll(() => connect.locator("label.segment").count(), { timeout: 10_000 }).toBe(5);
      // OAuth on /mcp for every client, no header.
      await pickClient(connect, "Claude Code");
      expect(await snippetIn(connect)).toBe(`claude mcp add --transport http upbeat ${APP_URL}/mcp`);
      expect(await connect.textContent()).toContain("Authenticate");
      await pickClient(connect, "VS Code");
      expect(JSON.parse(await snippetIn(connect))).toEqual({
        servers: { upbeat: { type: "http", url: `${APP_URL}/mcp` } },
      });
      await pickClient(connect, "Cursor");
      expect(JSON.parse(await snippetIn(connect))).toEqual({ mcpServers: { upbeat: { url: `${APP_URL}/mcp` } } });
      await page.screenshot({ path: join(SHOTS, `connect-cursor-${size}.png`), fullPage: true });

      await page.getByLabel("Name (optional)").fill(`Snippets ${size}`);
      await page.getByRole("button", { name: "Create key" }).click();
      const keyText = page.getByText(/svc_[0-9A-Za-z]{30,}/).first();
      await expect.poll(() => keyText.count(), { timeout: 10_000 }).toBe(1);
      const key = /svc_[0-9A-Za-z]+/.exec((await keyText.textContent()) ?? "")?.[0] ?? "";
      expect(key).not.toBe("");
      const config = configPanel(page);
      // Cursor: the user's own file, with the key.
      expect(JSON.parse(await snippetIn(config))).toEqual({
        mcpServers: { upbeat: { url: `${APP_URL}/mcp/key`, headers: { Authorization: `Bearer ${key}` } } },
      });
      expect(await config.textContent()).toContain("~/.cursor/mcp.json, your own file");
      await config.screenshot({ path: join(SHOTS, `key-config-cursor-panel-${size}.png`) });
      // VS Code: a project file, so never the key; a password prompt instead.
      await pickClient(config, "VS Code");
      const vscode = await snippetIn(config);
      expect(vscode).not.toContain(key);
      expect(JSON.parse(vscode)).toEqual({
        inputs: [{ type: "promptString", id: "upbeat-key", description: "Upbeat API key", password: true }],
        servers: {
          upbeat: {
            type: "http",
            url: `${APP_URL}/mcp/key`,
            // biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's own placeholder
            headers: { Authorization: "Bearer ${input:upbeat-key}" },
          },
        },
      });
      await config.screenshot({ path: join(SHOTS, `key-config-vscode-panel-${size}.png`) });
      await pickClient(config, "Claude Code");
      expect(await snippetIn(config)).toBe(
        `claude mcp add --transport http upbeat ${APP_URL}/mcp/key --header "Authorization: Bearer ${key}"`,
      );
      // Claude Desktop keeps the mcp-remote bridge, on the key path.
      await pickClient(config, "Claude Desktop");
      const desktop = JSON.parse(await snippetIn(config));
      expect(desktop.mcpServers.upbeat.command).toBe("npx");
      expect(desktop.mcpServers.upbeat.args).toContain("mcp-remote");
      expect(desktop.mcpServers.upbeat.args).toContain(`${APP_URL}/mcp/key`);
      expect(desktop.mcpServers.upbeat.env.AUTH_HEADER).toBe(`Bearer ${key}`);
      await page.getByRole("button", { name: "I have copied it" }).click();

      // The keys list fits: at 390 px the facts stack under the name and Revoke is fully on screen.
      const keysPanel = page.locator("section", { has: page.getByRole("heading", { name: "API keys" }) });
      const row = keysPanel.getByRole("row").filter({ hasText: `Snippets ${size}` });
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.textContent()).toContain("Read only");
      const revoke = row.getByRole("button", { name: /^Revoke/ });
      const box = await revoke.boundingBox();
      expect(box).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(viewport.width);
      const clipped = await keysPanel.locator(".table-wrap").evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(clipped).toBeLessThanOrEqual(0);
      expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
      await keysPanel.scrollIntoViewIfNeeded();
      await keysPanel.screenshot({ path: join(SHOTS, `keys-list-${size}.png`) });
      expect(await axeFindings(page)).toEqual([]);
      await page.close();
    }
    expect(web.problems).toEqual([]);
  });
});
