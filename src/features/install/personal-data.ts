import type { PersonalData } from "../../lib/personal-data.ts";

export const installPersonalData: PersonalData = {
  feature: "install",
  places: [
    {
      kind: "redact",
      table: "installations",
      column: "installer_user_id",
      why: "who installed the app: the installation stays (it is the workspace's), the name goes; a reinstall sets it anew",
    },
  ],
};
