import { useState } from "react";
import { initials } from "../lib/people.ts";

/**
 * A person's Slack picture, or their initials when Slack has none (or it fails to load). Decorative: the name
 * always stands beside it, so the image has alt="" and the initials are hidden from screen readers and text.
 */
export function Avatar({ name, url, size = 24 }: { name: string; url: string | null | undefined; size?: number }) {
  const [failed, setFailed] = useState(false);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.42) };
  if (url && !failed) {
    return <img className="avatar" src={url} alt="" width={size} height={size} onError={() => setFailed(true)} />;
  }
  return (
    // The initials are drawn by CSS (::before), so they stay out of the option's and the chip's text.
    <span className="avatar avatar-initials" style={style} data-initials={initials(name)} aria-hidden="true" />
  );
}
