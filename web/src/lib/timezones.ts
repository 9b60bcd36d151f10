/** IANA timezone names the browser knows, with their current UTC offset for display. */

let zones: string[] | undefined;

export function allTimezones(): string[] {
  if (zones) return zones;
  let list: string[] = [];
  try {
    list = Intl.supportedValuesOf("timeZone");
  } catch {
    list = [];
  }
  // Browsers leave UTC out of the list; the server stores it as "UTC".
  zones = ["UTC", ...list.filter((z) => z !== "UTC")];
  return zones;
}

export function browserTimezone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

const offsets = new Map<string, string>();

/** "UTC+01:00" now (it changes with daylight saving time). */
export function utcOffset(zone: string): string {
  const hit = offsets.get(zone);
  if (hit !== undefined) return hit;
  let label = "";
  try {
    const part = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
      .formatToParts(new Date())
      .find((p) => p.type === "timeZoneName")?.value;
    label = part === "GMT" ? "UTC+00:00" : (part ?? "").replace("GMT", "UTC");
  } catch {
    label = "";
  }
  offsets.set(zone, label);
  return label;
}

/** Matches "new york", "new_york", "America/New" and offsets such as "+05:30". */
export function timezoneMatches(zone: string, search: string): boolean {
  const q = search
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, " ");
  if (!q) return true;
  const name = zone.toLowerCase().replace(/_/g, " ");
  return name.includes(q) || utcOffset(zone).toLowerCase().includes(q);
}
