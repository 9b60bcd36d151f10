import { findActiveInstallation, findInstallation } from "../../chat/installations.repo.ts";
import type { Deps } from "../../deps.ts";
import { sha256Hex } from "../../lib/crypto.ts";
import { weekAiSummaries } from "../ai-summary/index.ts";
import { workspaceTimezone } from "../calendar/index.ts";
import { findMember, type MemberRow } from "../members/index.ts";
import { buildDigest } from "./digest.content.ts";
import { renderDigest } from "./digest.render.ts";
import type { Rendered } from "./email.layout.ts";
import { EmailRetryableError, type OutgoingEmail, sendEmail } from "./email.mailer.ts";
import { countAttempt, digestWanted, type EmailSendRow, findSend, finishSend } from "./email.repo.ts";
import { renderReinstall } from "./reinstall.service.ts";
import { unsubscribeUrl } from "./unsubscribe.token.ts";
import { renderWelcome } from "./welcome.render.ts";
import { installerFromSlack } from "./welcome.service.ts";

declare module "../../jobs/queue.ts" {
  interface JobPayloads {
    /** Sends the e-mail claimed under `key` (see email_sends); nothing when it was sent, dropped or skipped. */
    "email.send": { teamId: string; key: string };
  }
}

export function emailJobs(deps: Deps): void {
  deps.queue.register("email.send", ({ teamId, key }, job) => deliverEmail(deps, teamId, key, job.retryCount), {
    concurrency: 4,
  });
}

type Prepared = { mail: OutgoingEmail } | { skip: string };

/**
 * The provider keeps an Idempotency-Key for 24 hours (Resend): past that, a retry after a lost answer could send the
 * e-mail twice. An e-mail not sent within 20 hours of its claim is dropped instead (a digest that late is stale too).
 */
export const EMAIL_SEND_WINDOW_MS = 20 * 60 * 60 * 1000;

interface Links {
  dashboardUrl: string;
  unsubscribeUrl: string;
}

/** A name to greet with: the member's real name once the member sync brought it (until then it is the user id). */
function greetingName(member: Pick<MemberRow, "userId" | "realName" | "displayName"> | undefined): string {
  const real = member?.realName.trim();
  if (real && real !== member?.userId) return real;
  return member?.displayName.trim() || "there";
}

/** The same e-mail always carries the same key, wherever and however often it is attempted. */
function idempotencyKey(deps: Pick<Deps, "config">, claim: EmailSendRow): string {
  return `upbeat-${sha256Hex(`${deps.config.appUrl}|${claim.teamId}|${claim.key}`)}`;
}

function outgoing(deps: Pick<Deps, "config">, claim: EmailSendRow, to: string, r: Rendered, unsub: string) {
  return { to, ...r, unsubscribeUrl: unsub, idempotencyKey: idempotencyKey(deps, claim) };
}

async function prepareWelcome(deps: Deps, claim: EmailSendRow, links: Links): Promise<Prepared> {
  const member = await findMember(deps.db, claim.teamId, claim.userId);
  // The member sync runs beside this job: until it has stored the installer's address, Slack is asked.
  const person = member?.email ? member : await installerFromSlack(deps, claim.teamId, claim.userId);
  if (!person) return { skip: "the installer is not a Slack user any more" };
  if (!person.email) return { skip: "no e-mail address" };
  const installation = await findActiveInstallation(deps.db, claim.teamId);
  const rendered = renderWelcome({
    recipientName: greetingName(person),
    teamName: installation?.teamName ?? claim.teamId,
    ...links,
  });
  return { mail: outgoing(deps, claim, person.email, rendered, links.unsubscribeUrl) };
}

async function prepareReinstall(deps: Deps, claim: EmailSendRow, links: Links): Promise<Prepared> {
  const member = await findMember(deps.db, claim.teamId, claim.userId);
  if (!member?.active || member.role !== "admin") return { skip: "no longer an active admin" };
  if (!member.email) return { skip: "no e-mail address" };
  const installation = await findInstallation(deps.db, claim.teamId);
  // Reinstalled (or refused again, a newer mark with e-mails of its own) before this one went out: it is stale.
  if (installation?.tokenRefusedAt?.getTime() !== claim.createdAt.getTime()) return { skip: "reinstalled since" };
  const rendered = renderReinstall({
    recipientName: greetingName(member),
    teamName: installation.teamName,
    installUrl: `${deps.config.appUrl}/install`,
    ...links,
  });
  return { mail: outgoing(deps, claim, member.email, rendered, links.unsubscribeUrl) };
}

async function prepareDigest(deps: Deps, claim: EmailSendRow, links: Links): Promise<Prepared> {
  // Who gets it is decided at the claim; whoever stopped qualifying since (left, demoted, switched off) does not.
  const member = await findMember(deps.db, claim.teamId, claim.userId);
  if (!member?.active || member.role !== "admin") return { skip: "no longer an active admin" };
  if (!member.email) return { skip: "no e-mail address" };
  if (!(await digestWanted(deps.db, claim.teamId, claim.userId))) return { skip: "switched off" };
  const digest = await buildDigest(deps, claim.teamId, {
    weekStart: claim.weekStart!,
    timezone: await workspaceTimezone(deps, claim.teamId),
    asOf: claim.createdAt,
  });
  if (!digest) return { skip: "no standup ran that week" };
  const ai = await weekAiSummaries(
    deps,
    claim.teamId,
    { from: digest.weekStart, to: digest.weekEnd },
    digest.standups.map((s) => s.scheduleId),
  );
  for (const s of digest.standups) {
    const summary = ai.get(s.scheduleId);
    if (summary) s.ai = summary;
  }
  const rendered = renderDigest(digest, { ...links, recipientName: greetingName(member) });
  return { mail: outgoing(deps, claim, member.email, rendered, links.unsubscribeUrl) };
}

/**
 * Sends one claimed e-mail. 429, 5xx and network failures throw, so the queue retries with backoff (the same
 * Idempotency-Key every time) until its retries are spent, when the claim ends as dropped; any other refusal drops
 * it at once, since sending again cannot help. Logs carry the workspace, the kind and the outcome: never an address
 * or any content.
 */
export async function deliverEmail(deps: Deps, teamId: string, key: string, retryCount = 0): Promise<void> {
  const claim = await findSend(deps.db, teamId, key);
  if (claim?.state !== "queued") return;
  const log = deps.log.child({ team_id: teamId, job: "email.send", kind: claim.kind });
  const count = (outcome: "sent" | "skipped" | "dropped" | "retry") =>
    deps.metrics.emailDeliveries.inc({ kind: claim.kind, outcome });
  const skip = async (why: string) => {
    await finishSend(deps.db, teamId, key, "skipped", deps.clock.now());
    count("skipped");
    log.info({ why }, "e-mail not sent");
  };
  if (!deps.config.emailApiKey) return skip("e-mail is off on this server");
  // The reinstall notice goes to a workspace that is uninstalled by its nature (prepareReinstall checks the mark).
  if (claim.kind !== "reinstall" && !(await findActiveInstallation(deps.db, teamId)))
    return skip("the workspace uninstalled Upbeat");

  const links = {
    dashboardUrl: `${deps.config.appUrl}/dashboard`,
    unsubscribeUrl: unsubscribeUrl(deps, { teamId, userId: claim.userId, emailKey: key, issuedAt: claim.createdAt }),
  };
  const prepare = { welcome: prepareWelcome, digest: prepareDigest, reinstall: prepareReinstall }[claim.kind];
  const prepared = await prepare(deps, claim, links);
  if ("skip" in prepared) return skip(prepared.skip);

  if (deps.clock.now().getTime() - claim.createdAt.getTime() > EMAIL_SEND_WINDOW_MS) {
    await finishSend(deps.db, teamId, key, "dropped", deps.clock.now());
    count("dropped");
    log.warn({ attempts: claim.attempts }, "e-mail not sent within 20 hours of its claim; dropped");
    return;
  }
  await countAttempt(deps.db, teamId, key, deps.clock.now());
  let outcome: Awaited<ReturnType<typeof sendEmail>>;
  try {
    outcome = await sendEmail(deps.config, prepared.mail);
  } catch (err) {
    const retryable = err instanceof EmailRetryableError ? err : new EmailRetryableError("e-mail could not be sent");
    if (retryCount < deps.queue.settings.retryLimit) {
      count("retry");
      throw retryable;
    }
    await finishSend(deps.db, teamId, key, "dropped", deps.clock.now());
    count("dropped");
    log.warn({ err: retryable.message, attempts: retryCount + 1 }, "e-mail not sent after every retry; dropped");
    return;
  }
  if (outcome.kind === "sent") {
    await finishSend(deps.db, teamId, key, "sent", deps.clock.now(), outcome.id);
    count("sent");
    log.info(outcome.earlier ? "e-mail was sent by an earlier attempt (the provider knows its key)" : "e-mail sent");
    return;
  }
  await finishSend(deps.db, teamId, key, "dropped", deps.clock.now());
  count("dropped");
  log.warn({ status: outcome.status }, "e-mail refused by the provider; dropped without retrying");
}
