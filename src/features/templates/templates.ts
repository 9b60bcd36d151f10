/**
 * The built-in question templates (`GET /dashboard/api/templates`). They are read-only: the whole tree is
 * frozen, so copy `questions` (`[...template.questions]`) before putting it on a schedule and editing it.
 */

export interface QuestionTemplate {
  name: string;
  questions: string[];
}

/** The three questions every schedule starts with; answers map to yesterday, today and blockers. */
export const DEFAULT_QUESTIONS: readonly string[] = Object.freeze([
  "What did you complete yesterday?",
  "What are you working on today?",
  "Any blockers?",
]);

const BUILT_IN_TEMPLATES: QuestionTemplate[] = [
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
      "What are your top three priorities this week?",
      "Which of them depend on someone else?",
      "What are you deliberately not doing this week?",
      "Any risks to this week's plan?",
    ],
  },
  {
    name: "Weekly retro",
    questions: [
      "What went well this week?",
      "What didn't go well?",
      "What did you learn?",
      "What is one thing we should change next week?",
    ],
  },
  {
    name: "Sprint retrospective",
    questions: [
      "What should we keep doing?",
      "What should we stop doing?",
      "What should we start doing?",
      "Which sprint goal did we miss, and why?",
      "Who deserves a shout-out this sprint?",
    ],
  },
  {
    name: "On-call handoff",
    questions: [
      "Which incidents or pages came in during your shift?",
      "What is still open or being watched?",
      "Any alerts that were noisy or should be tuned?",
      "Any deploys, migrations or maintenance scheduled for the next shift?",
      "What should the incoming on-call know first?",
    ],
  },
  {
    name: "Incident follow-up",
    questions: [
      "Which incident follow-up items did you close since yesterday?",
      "Which items are you working on today?",
      "Are any action items unowned or stalled?",
      "Has anything changed in our understanding of the root cause?",
    ],
  },
  {
    name: "Design review check-in",
    questions: [
      "Which designs are ready for review?",
      "What feedback did you get, and what will you change?",
      "Which decisions still need a product or engineering call?",
      "Is anything blocked on research, content or assets?",
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
      "How many tickets did you close last shift, and what was the queue like?",
      "Which issues came up more than once?",
      "Which tickets are escalated or waiting on engineering?",
      "Anything the next shift should watch out for?",
    ],
  },
  {
    name: "Remote team pulse",
    questions: [
      "How connected do you feel to the team this week?",
      "What is one thing that made your week easier?",
      "What is one thing that made it harder?",
      "Is there someone you'd like to pair or catch up with?",
    ],
  },
  {
    name: "Manager 1:1 prep",
    questions: [
      "What would you like to talk about in our next 1:1?",
      "What are you proud of since we last met?",
      "Where could you use more support or clarity?",
      "Any feedback for me?",
    ],
  },
  {
    name: "Release readiness",
    questions: [
      "Which changes are going into this release?",
      "Are all of them tested, reviewed and documented?",
      "Are there known issues or feature flags to flip?",
      "Is the rollback plan clear?",
      "Anything that should hold the release?",
    ],
  },
  {
    name: "Bug triage",
    questions: [
      "Which new bugs came in since yesterday?",
      "Which bugs are you fixing today?",
      "Are any bugs missing a priority, an owner or reproduction steps?",
      "Any bug that affects customers right now?",
    ],
  },
  {
    name: "OKR progress",
    questions: [
      "Which key result did you move this week, and by how much?",
      "How confident are you that we hit each key result this quarter?",
      "What is the biggest risk to our objectives?",
      "What should we drop or re-scope?",
    ],
  },
  {
    name: "Learning & growth",
    questions: [
      "What did you learn this week?",
      "What would you like to get better at?",
      "Is there a talk, course or book you'd recommend to the team?",
      "Who could help you grow in that area?",
    ],
  },
  {
    name: "Monday kickoff",
    questions: [
      "How was your weekend?",
      "What is your main goal for this week?",
      "Any meetings, deadlines or time off we should plan around?",
      "What do you need from the team to get started?",
    ],
  },
  {
    name: "Friday wins",
    questions: [
      "What was your biggest win this week?",
      "What did a teammate do that helped you?",
      "What are you leaving for next week?",
      "Any plans for the weekend?",
    ],
  },
  {
    name: "Project status",
    questions: [
      "What progress did the project make since the last update?",
      "Is the project on track: green, amber or red?",
      "What are the next milestones and their dates?",
      "Which risks or dependencies need attention?",
      "Any decisions needed from stakeholders?",
    ],
  },
  {
    name: "Research sync",
    questions: [
      "What did you try or analyse since the last sync?",
      "What did you find, including negative results?",
      "What is your next experiment or question?",
      "Do you need data, compute or a second opinion?",
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
      "Which interviews or debriefs are scheduled?",
      "Are any candidates waiting on feedback or an offer?",
      "Which roles need more sourcing or referrals?",
    ],
  },
  {
    name: "New-joiner onboarding check-in",
    questions: [
      "What did you set up or learn since your last check-in?",
      "What are you working on next?",
      "What has been confusing or hard to find?",
      "Who have you met so far, and who would you like to meet?",
      "Is there anything you need access to?",
    ],
  },
  {
    name: "Mood & wellbeing",
    questions: [
      "How are you feeling today, honestly?",
      "What is giving you energy at the moment?",
      "What is draining your energy?",
      "Is your workload manageable?",
      "Is there anything the team could do to help?",
    ],
  },
  {
    name: "Engineering daily",
    questions: [
      "What did you merge or ship yesterday?",
      "What are you coding, reviewing or testing today?",
      "Which pull requests are waiting for review?",
      "Any blockers, flaky tests or environment issues?",
    ],
  },
];

export const TEMPLATES: readonly QuestionTemplate[] = Object.freeze(
  BUILT_IN_TEMPLATES.map((template) =>
    Object.freeze({ name: template.name, questions: Object.freeze(template.questions) as string[] }),
  ),
);

export function findTemplate(name: string): QuestionTemplate | undefined {
  return TEMPLATES.find((template) => template.name === name);
}
