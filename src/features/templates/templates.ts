/**
 * The built-in question templates (`GET /dashboard/api/templates`). They are read-only: the whole tree is
 * frozen, so copy `questions` (`[...template.questions]`) before putting it on a schedule and editing it.
 *
 * A response keeps every answer; the first two are also its yesterday and today, and the answer to the
 * schedule's blocker question (the third unless the schedule says otherwise) is its blockers and feeds blocker
 * alerts. So each template's third question asks what is in the way (blockers, risks, what drains energy), its
 * first two lean towards what happened and what is next, and its own questions follow.
 */

import { type QuestionDetail, questionDetailsOf, textQuestion } from "../../contract/questions.ts";

export interface QuestionTemplate {
  name: string;
  /** The questions' texts (the spec's field). */
  questions: string[];
  /** One per question: how it is answered (see questionDetailsOf); text unless the template says otherwise. */
  question_details: QuestionDetail[];
}

/** A built-in's question: a plain string is a required free-text question. */
type TemplateQuestion = string | QuestionDetail;

/** A 1–5 scale (mood, confidence): the number a report averages and draws a trend of. */
const scale = (text: string, opts: { anonymous?: boolean } = {}): QuestionDetail => ({
  text,
  type: "number",
  min: 1,
  max: 5,
  // An anonymous pulse is optional: nobody has to answer it to send the rest.
  required: !opts.anonymous,
  anonymous: opts.anonymous ?? false,
});
const yesNo = (text: string): QuestionDetail => ({ text, type: "yes_no", required: true, anonymous: false });
const choice = (text: string, options: string[]): QuestionDetail => ({
  text,
  type: "single_choice",
  options,
  required: true,
  anonymous: false,
});

/** The three questions every schedule starts with: yesterday, today and blockers (the blocker question). */
export const DEFAULT_QUESTIONS: readonly string[] = Object.freeze([
  "What did you complete yesterday?",
  "What are you working on today?",
  "Any blockers?",
]);

// Typed questions come after the third (the blocker question, which stays text), so yesterday, today and blockers
// keep their meaning in every template.
const BUILT_IN_TEMPLATES: { name: string; questions: TemplateQuestion[] }[] = [
  { name: "Daily standup", questions: [...DEFAULT_QUESTIONS] },
  {
    name: "Async check-in",
    questions: [
      "What have you moved forward since your last check-in?",
      "What will you focus on next?",
      "Is anything slowing you down or waiting on someone?",
      "Anything the team should know about your availability?",
    ],
  },
  {
    name: "Weekly planning",
    questions: [
      "What did you finish last week?",
      "What are your top three priorities this week?",
      "What could get in the way of this plan?",
      "Which of your priorities depend on someone else?",
      "What are you deliberately not doing this week?",
      scale("How confident are you in this week's plan, 1–5?"),
    ],
  },
  {
    name: "Weekly retro",
    questions: [
      "What went well this week?",
      "What will you focus on next week?",
      "What got in your way this week?",
      "What did you learn?",
      "What is one thing we should change next week?",
    ],
  },
  {
    name: "Sprint retrospective",
    questions: [
      "What went well this sprint?",
      "What should we try next sprint?",
      "What slowed us down?",
      "Which sprint goal did we miss, and why?",
      "What should we stop doing?",
      "Who deserves a shout-out this sprint?",
    ],
  },
  {
    name: "On-call handoff",
    questions: [
      "Which incidents or pages came in during your shift?",
      "What should the incoming on-call know first?",
      "What is still open, unresolved or being watched?",
      "Which alerts were noisy and should be tuned?",
      "Any deploys, migrations or maintenance scheduled for the next shift?",
    ],
  },
  {
    name: "Incident follow-up",
    questions: [
      "Which incident action items did you close since yesterday?",
      "Which action items are you working on today?",
      "Are any action items unowned or stalled?",
      "Has anything changed in our understanding of the root cause?",
    ],
  },
  {
    name: "Design review check-in",
    questions: [
      "Which designs did you finish or share for review?",
      "What are you designing next?",
      "Is anything blocked on research, content, assets or a decision?",
      "What feedback did you get, and what will you change?",
    ],
  },
  {
    name: "Sales pipeline",
    questions: [
      "Which deals moved stage since yesterday?",
      "Which calls or demos are on your calendar today?",
      "Which deals are at risk, and what would help?",
      "Anything you need from product, legal or marketing?",
    ],
  },
  {
    name: "Customer support shift",
    questions: [
      "How did your last shift go, and how many tickets did you close?",
      "What will you pick up this shift?",
      "Which tickets are escalated or waiting on engineering?",
      "Which issues came up more than once?",
      "Anything the next shift should watch out for?",
    ],
  },
  {
    name: "Remote team pulse",
    questions: [
      "How connected do you feel to the team this week?",
      "What made your week easier?",
      "What made your week harder?",
      "Is there someone you'd like to pair or catch up with?",
      scale("How balanced did work and life feel this week, 1–5?", { anonymous: true }),
    ],
  },
  {
    name: "Manager 1:1 prep",
    questions: [
      "What are you proud of since we last met?",
      "What would you like to talk about in our next 1:1?",
      "Where could you use more support or clarity?",
      "Any feedback for me?",
    ],
  },
  {
    name: "Release readiness",
    questions: [
      "Which changes are going into this release?",
      "Are all of them tested, reviewed and documented?",
      "Is there anything that should hold the release?",
      "Are there known issues or feature flags to flip after the release?",
      "Is the rollback plan clear, and who owns it?",
      scale("How confident are you in this release, 1–5?"),
    ],
  },
  {
    name: "Bug triage",
    questions: [
      "Which bugs did you fix or close since yesterday?",
      "Which bugs are you working on today?",
      "Are any bugs blocked, unowned or missing reproduction steps?",
      "Which new bugs came in, and how severe are they?",
      "Is any bug hurting customers right now?",
    ],
  },
  {
    name: "OKR progress",
    questions: [
      "Which key result did you move this week, and by how much?",
      "What will you do next to move your key results?",
      "What is the biggest risk to our objectives?",
      scale("How confident are you that we hit our key results this quarter, 1–5?"),
      "What should we drop or re-scope?",
    ],
  },
  {
    name: "Learning & growth",
    questions: [
      "What did you learn this week?",
      "What would you like to get better at next?",
      "Is anything getting in the way of your learning time?",
      "Is there a talk, course or book you'd recommend to the team?",
      "Who could help you grow in that area?",
    ],
  },
  {
    name: "Monday kickoff",
    questions: [
      "How was your weekend?",
      "What is your main goal for this week?",
      "What could get in the way: blockers, deadlines or time off?",
      "What do you need from the team to get started?",
    ],
  },
  {
    name: "Friday wins",
    questions: [
      "What was your biggest win this week?",
      "What are you leaving for next week?",
      "Did anything slow you down this week?",
      "Which teammate helped you, and how?",
      "Any plans for the weekend?",
    ],
  },
  {
    name: "Project status",
    questions: [
      "What progress did the project make since the last update?",
      "What are the next milestones and their dates?",
      "Which risks or dependencies need attention?",
      choice("Is the project on track?", ["Green", "Amber", "Red"]),
      "Any decisions needed from stakeholders?",
    ],
  },
  {
    name: "Research sync",
    questions: [
      "What did you try or analyse since the last sync?",
      "What is your next experiment or question?",
      "Do you need data, compute or a second opinion?",
      "What did you find, including negative results?",
    ],
  },
  {
    name: "Content/marketing standup",
    questions: [
      "What did you publish or ship yesterday?",
      "What are you writing, designing or launching today?",
      "Which pieces are waiting on review or approval?",
      "How did recent campaigns or posts perform?",
    ],
  },
  {
    name: "Hiring pipeline",
    questions: [
      "Which candidates moved forward since the last update?",
      "Which interviews or debriefs are coming up?",
      "Are any candidates stuck waiting on feedback or an offer?",
      "Which roles need more sourcing or referrals?",
    ],
  },
  {
    name: "New-joiner onboarding check-in",
    questions: [
      "What did you set up or learn since your last check-in?",
      "What are you working on next?",
      "What has been confusing or hard to find?",
      "Is there anything you still need access to?",
      "Who have you met so far, and who would you like to meet?",
    ],
  },
  {
    name: "Mood & wellbeing",
    questions: [
      "How are you feeling today, honestly?",
      "What is giving you energy at the moment?",
      "What is draining your energy?",
      yesNo("Is your workload manageable?"),
      "Is there anything the team could do to help?",
      scale("Your mood today, from 1 (low) to 5 (great)?"),
    ],
  },
  {
    name: "Engineering daily",
    questions: [
      "What did you merge or ship yesterday?",
      "What are you coding, reviewing or testing today?",
      "Any blockers, flaky tests or environment issues?",
      "Which of your pull requests are waiting for review?",
    ],
  },
];

export const TEMPLATES: readonly QuestionTemplate[] = Object.freeze(
  BUILT_IN_TEMPLATES.map((template) => {
    const questions = template.questions.map((q) => (typeof q === "string" ? q : q.text));
    const details = questionDetailsOf(
      questions,
      template.questions.map((q) => (typeof q === "string" ? textQuestion(q) : q)),
    );
    return Object.freeze({
      name: template.name,
      questions: Object.freeze(questions) as string[],
      question_details: Object.freeze(
        details.map((d) => Object.freeze(d.options ? { ...d, options: Object.freeze(d.options) as string[] } : d)),
      ) as QuestionDetail[],
    });
  }),
);

export function findTemplate(name: string): QuestionTemplate | undefined {
  return TEMPLATES.find((template) => template.name === name);
}
