-- Member profiles: birthday (month and day, never a year), work start date, role, location, "ask me about",
-- whether to be celebrated. One row per member who has one; kept until an admin deletes the member's data.
CREATE TABLE "profiles" (
	"team_id" text NOT NULL,
	"user_id" text NOT NULL,
	"birth_month" smallint,
	"birth_day" smallint,
	"start_date" date,
	"role" text DEFAULT '' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"ask_me_about" text DEFAULT '' NOT NULL,
	"celebrate" boolean DEFAULT true NOT NULL,
	"set_by_admin" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "profiles_team_id_user_id_pk" PRIMARY KEY("team_id","user_id"),
	CONSTRAINT "profiles_birthday_both" CHECK (("birth_month" IS NULL) = ("birth_day" IS NULL)),
	CONSTRAINT "profiles_birth_month" CHECK ("birth_month" BETWEEN 1 AND 12),
	CONSTRAINT "profiles_birth_day" CHECK ("birth_day" BETWEEN 1 AND 31)
);
