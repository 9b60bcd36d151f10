import { intakePersonalData } from "../../chat/intake/personal-data.ts";
import type { PersonalData } from "../../lib/personal-data.ts";
import { aiSummaryPersonalData } from "../ai-summary/index.ts";
import { celebrationsPersonalData } from "../celebrations/index.ts";
import { emailPersonalData } from "../email/index.ts";
import { feedPersonalData } from "../feed/index.ts";
import { installPersonalData } from "../install/index.ts";
import { kudosPersonalData } from "../kudos/index.ts";
import { mcpKeysPersonalData } from "../mcp-keys/index.ts";
import { membersPersonalData } from "../members/index.ts";
import { profilesPersonalData } from "../profiles/index.ts";
import { rulesPersonalData } from "../rules/index.ts";
import { sessionPersonalData } from "../session/index.ts";
import { standupsPersonalData } from "../standups/index.ts";
import { timeOffPersonalData } from "../time-off/index.ts";
import { webhooksPersonalData } from "../webhooks/index.ts";

/**
 * Every place a member's personal data is kept, feature by feature: what deleting a member's data walks. A feature
 * that stores a user id somewhere new adds an entry to its own personal-data.ts (personal-data.test.ts fails until
 * it does).
 */
export const PERSONAL_DATA: readonly PersonalData[] = [
  membersPersonalData,
  sessionPersonalData,
  installPersonalData,
  standupsPersonalData,
  kudosPersonalData,
  profilesPersonalData,
  celebrationsPersonalData,
  timeOffPersonalData,
  rulesPersonalData,
  webhooksPersonalData,
  emailPersonalData,
  mcpKeysPersonalData,
  feedPersonalData,
  intakePersonalData,
  aiSummaryPersonalData,
];

/**
 * Columns whose names suggest a person but that hold none (`table.column`: why). The coverage test accepts a
 * person-like column only when the registry covers it or it is listed here.
 */
export const NOT_PERSONAL: Readonly<Record<string, string>> = {
  "installations.bot_user_id": "the app's own bot user, not a member",
};
