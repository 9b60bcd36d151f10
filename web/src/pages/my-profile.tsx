import { useState } from "react";
import { PageHeader } from "../components/layout.tsx";
import { Notice, type NoticeMessage, QueryView } from "../components/states.tsx";
import { useSaveProfile } from "../lib/mutations.ts";
import { useProfile } from "../lib/queries.ts";
import { ProfileForm } from "./profile-form.tsx";

export function MyProfilePage() {
  const profile = useProfile();
  const save = useSaveProfile();
  const [notice, setNotice] = useState<NoticeMessage | undefined>();
  return (
    <>
      <PageHeader
        title="My profile"
        lead="What your teammates see about you, and the dates Upbeat celebrates. In Slack: /upbeat profile."
      />
      {notice ? (
        <Notice kind={notice.kind} onDismiss={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      ) : null}
      <section className="card" aria-labelledby="my-profile-title">
        <h2 id="my-profile-title">Profile</h2>
        <QueryView query={profile} loading="Loading your profile…">
          {(p) => (
            <ProfileForm
              key={p.updated_at ?? "new"}
              profile={p}
              saving={save.isPending}
              error={save.error}
              onSave={(fields) => {
                setNotice(undefined);
                save.mutate(fields, {
                  onSuccess: () => setNotice({ kind: "success", text: "Your profile is saved." }),
                });
              }}
            />
          )}
        </QueryView>
      </section>
      {/* Time off: the time-off feature adds its section (own away ranges) here, below the profile. */}
    </>
  );
}
